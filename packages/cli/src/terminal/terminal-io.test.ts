import { terminalSafe } from '@profile-articles/sdk/internal/terminal';
import { ALL_ESCAPES, hostileText, TERMINAL_CONTROLS } from '@profile-articles/test-utils/hostile-strings';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colorsFor } from './style.js';
import { forTerminal, own, terminalIo, unfiltered, withoutOwnStyle } from './terminal-io.js';

const ansi = colorsFor({ isTTY: true, write: () => true }, {});

describe('the output boundary', () => {
  it('keeps the CLI’s own colours and line clearing, and removes every other control character', () => {
    const written = forTerminal(`${own('\r\u001b[K')}${ansi.bold(`Ada${ALL_ESCAPES}`)} ${ansi.dim('x')}\n`);
    // The server's \r is a line break here: what it would have written over stays above it.
    expect(written).toBe(
      '\r\u001b[K\u001b[1mAdainnocent link\nOVERWRITTENevil.example\u001b[22m \u001b[2mx\u001b[22m\n',
    );
  });

  it('lets no server text pass for the CLI’s own, whatever it holds', () => {
    fc.assert(
      fc.property(hostileText(), (text) => {
        // Each text between the CLI's own codes, as commands place a server's strings.
        const written = forTerminal(`${ansi.bold(text)}: ${ansi.dim(text)}\n`);
        const safe = terminalSafe(text, 'lines');
        expect(written).toBe(`\u001b[1m${safe}\u001b[22m: \u001b[2m${safe}\u001b[22m\n`);
      }),
    );
  });

  it('a private-use character from a server is only text', () => {
    expect(forTerminal('\ue000\u001b]2;title\u0007\ue000\u001b[2J')).toBe('\ue000\ue000');
    expect(forTerminal(`\ue000${ansi.red('\ue000\u001b[2J')}`)).toBe('\ue000\u001b[31m\ue000\u001b[39m');
  });

  it('measures what shows: no colour codes', () => {
    expect(withoutOwnStyle(`${ansi.bold('Ada')} ${ansi.cyan('[1]')}`)).toBe('Ada [1]');
  });

  it('filters stdout and stderr, and keeps what they say about the terminal', () => {
    let out = '';
    const stdout = { isTTY: true, columns: 90, rows: 30, write: (chunk: string) => (out += chunk) };
    const io = terminalIo({ stdout, stderr: stdout, stdin: process.stdin, env: {} });
    io.stdout.write(`Ada\u001b]52;c;Y3VybA==\u0007 ${ansi.bold('Lovelace')}\n`);
    expect(out).toBe('Ada \u001b[1mLovelace\u001b[22m\n');
    expect(out).not.toMatch(/\u001b\]/);
    expect([io.stdout.isTTY, io.stdout.columns, io.stdout.rows]).toEqual([true, 90, 30]);
    expect(unfiltered(io.stderr)).toBe(stdout);
    expect(`${out}`.replace(/\u001b\[\d+m/g, '')).not.toMatch(TERMINAL_CONTROLS);
  });
});
