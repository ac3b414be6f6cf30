// --jq, as a script writer uses it: the built bin against the mock over HTTP, in a pipe (the
// terminal is hostile-terminal.test.ts; the start-up cost is startup.test.ts).
import { hasTmux, openTerminal, screenLines } from '@profile-articles/test-utils/tmux';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, KEYS, onlyJson, transcript, useCliMock } from './helpers.js';

const h = useCliMock();
const errorOf = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!).error;

describe('--jq', () => {
  it('prints each result on a line: strings raw, as gh does; other values as one-line JSON', async () => {
    const credits = await h.cli(['credits', '--jq', '.credits, .pricing.read_credits']);
    expect(credits).toMatchObject({ code: 0, stdout: '1000\n1\n', stderr: '' });
    expect((await h.cli(['generate', 'ada-lovelace'])).code).toBe(0);
    const read = await h.cli(['read', 'ada-lovelace', '--jq', '.article | .title, {current_version}']);
    expect(read.code).toBe(0);
    const [title, object] = read.stdout.split('\n');
    // The title as text, not as a JSON string.
    expect(title).toBe(onlyJson((await h.run(['read', 'ada-lovelace', '--json'])).stdout).article.title);
    expect(title).not.toMatch(/^"/);
    expect(object).toBe('{"current_version":1}');
  });

  it('implies --json: no note, no spinner, errors as JSON', async () => {
    const read = await h.cli(['read', 'nobody-here', '--jq', '.article.title']);
    expect(read.code).toBe(1);
    expect(read.stdout).toBe('');
    expect(errorOf(read.stderr)).toMatchObject({ type: 'NotFoundError', status: 404 });
  });

  it('a filter that does not compile is a usage error (exit 2) in jq’s own words; one that fails, exit 1', async () => {
    const bad = await h.cli(['credits', '--jq', '.credits |||']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(errorOf(bad.stderr).message).toMatch(
      /^--jq could not compile the filter: jq: error: syntax error/,
    );
    const failing = await h.cli(['credits', '--jq', 'error("no such thing")']);
    expect(failing.code).toBe(1);
    expect(errorOf(failing.stderr).message).toBe('--jq failed: jq: error: no such thing');
  });

  it('batch refuses it (its JSON Lines go to jq itself), before anything runs', async () => {
    const batch = await h.run(['batch', 'read', '--from', '-', '--yes', '--jq', '.'], {
      input: 'ada-lovelace\n',
    });
    expect(batch.code).toBe(2);
    expect(batch.stdout).toBe('');
    expect(errorOf(batch.stderr).message).toBe('batch does not take --jq: it prints JSON Lines.');
  });

  it('prints nothing for no result, and cannot read the environment (the key stays out of reach)', async () => {
    expect(await h.cli(['credits', '--jq', 'empty'])).toMatchObject({ code: 0, stdout: '' });
    const env = await h.cli(['credits', '--jq', '$ENV | tostring']);
    expect(env.code).toBe(0);
    expect(env.stdout).not.toContain(KEYS.main);
    expect(env.stdout).not.toContain('PROFILE_ARTICLES');
  });
});

describe.runIf(hasTmux)('--jq on a terminal', () => {
  // A person typing --jq reads the error: the one line and hint every command gives, not the
  // JSON object a script in a pipe gets (above).
  it('an error is the one-line error with its hint, not a JSON object', async () => {
    const env = `env -u CI -u NO_COLOR PROFILE_ARTICLES_API_KEY=${KEYS.main} PROFILE_ARTICLES_BASE_URL=${h.server.url} PROFILE_ARTICLES_CONFIG_DIR=${h.configDir}`;
    const command = (args: string) => `${env} ${process.execPath} ${BIN} ${args}; echo EXIT=$?`;
    const term = openTerminal(
      `${command("credits --jq '.credits |||'")}; ${command('read nobody-here --jq .article')}; ${command('credits --jq .credits --bogus')}; ${command('credits --jq .credits --verbose')}; sleep 30`,
      { columns: 200, rows: 20 },
    );
    try {
      const lines = screenLines(await term.waitFor(/(EXIT=\d+[\s\S]*){4}/));
      expect(lines[0]).toMatch(/^Error: --jq could not compile the filter: jq: error: syntax error/);
      expect(lines[1]).toBe('The filter is jq’s language: https://jqlang.org/manual/');
      expect(lines[2]).toBe('EXIT=2');
      expect(lines[3]).toMatch(/^Error: Not found \(404\)/);
      expect(lines.filter((line) => line.startsWith('EXIT='))).toEqual([
        'EXIT=2',
        'EXIT=1',
        'EXIT=2',
        'EXIT=0',
      ]);
      // A usage error too: commander's, one line and its hint.
      expect(lines.some((line) => /^Error: unknown option '--bogus'/.test(line))).toBe(true);
      // And --verbose's lines: text for the person, the value on stdout as jq printed it.
      expect(lines.at(-3)).toMatch(/^http GET \/api\/v1\/credits · 200/);
      expect(lines.at(-2)).toBe('1000');
      expect(lines.join('\n')).not.toContain('{"error"');
    } finally {
      term.close();
    }
  });
});

afterAll(() => {
  const all = transcript.join('\n');
  for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
});
