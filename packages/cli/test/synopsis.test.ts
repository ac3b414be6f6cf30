// Every synopsis in the docs names exactly the options commander itself knows, so that the
// docs cannot drift from the program again (issue 26: batch's lacked --state, --out, --partial
// and --retry-failed).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/program.js';

const program = buildProgram(
  { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin, env: {} } as never,
  () => {},
);
const doc = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** The long options a line names: `--from`, `--no-wait`. */
const optionsIn = (text: string) => [...new Set(text.match(/--[a-z][a-z-]*/g) ?? [])].sort();
const shown = (cmd: Command) =>
  cmd.options
    .filter((o) => !o.hidden && o.long && o.long !== '--version')
    .map((o) => o.long as string)
    .sort();
const command = (name: string) => program.commands.find((c) => c.name() === name)!;

/** docs/cli.md's synopsis: the first fenced block without a language, one line per command. */
const synopsis = /```\n(profile-articles \[[^`]+)```/.exec(doc('docs/cli.md'))?.[1] ?? '';
const [globalLine = '', ...commandLines] = synopsis.trimEnd().split('\n');

describe('docs/cli.md synopsis', () => {
  it('names every global option', () => {
    expect(optionsIn(globalLine)).toEqual(shown(program));
  });

  const visible = program.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
  it.each(visible.map((c) => c.name()))('`%s` names its arguments and every option it takes', (name) => {
    const cmd = command(name);
    // A line that starts with blanks deeper than a command's continues the one before it.
    const lines = commandLines.flatMap((l, i) =>
      l.trim().split(/\s/)[0] === name
        ? [
            l,
            ...commandLines
              .slice(i + 1)
              .filter((_, j, rest) => rest.slice(0, j + 1).every((c) => /^ {4,}/.test(c))),
          ]
        : [],
    );
    expect(lines, `no synopsis line for ${name}`).not.toHaveLength(0);
    const text = lines.join(' ');
    // A global option may stand on a command's line where it matters there (login --base-url).
    const own = optionsIn(text).filter((o) => !shown(program).includes(o));
    expect(own).toEqual([...new Set([...shown(cmd), ...cmd.commands.flatMap(shown)])].sort());
    for (const sub of cmd.commands) expect(text).toMatch(new RegExp(`\\b${sub.name()}\\b`));
    if (cmd.commands.length) return; // config's operands are its subcommands'
    // As many operands as commander takes, required ones in <>, optional ones in [].
    const required = cmd.registeredArguments.filter((a) => a.required).length;
    const optional = cmd.registeredArguments.length - required;
    const first = lines[0]!.split('·')[0]!;
    expect((first.match(/<[^>]+>/g) ?? []).length).toBe(required);
    expect((first.match(/\[(?!-)[^\]]+\]/g) ?? []).length).toBe(optional);
  });
});

describe('the batch synopsis of docs/bulk.md and the bulk guide', () => {
  it.each(['docs/bulk.md', 'docs/guides/bulk.md'])('%s names every option batch takes', (path) => {
    const block = /```\n(profile-articles batch [^`]+)```/.exec(doc(path))?.[1] ?? '';
    expect(optionsIn(block)).toEqual([...shown(command('batch')), '--json'].sort());
  });
});

describe('the guides', () => {
  it('the mock guide names every flag of `profile-articles mock`', () => {
    const table = doc('docs/guides/mock.md').split('| flag')[1]?.split('\n\n')[0] ?? '';
    expect(optionsIn(table)).toEqual(shown(command('mock')));
  });
});

describe('packages/cli/README.md', () => {
  it('lists every command', () => {
    const list = /## Commands\n\n([^\n]+)/.exec(doc('packages/cli/README.md'))?.[1] ?? '';
    const named = [...list.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    const visible = program.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    for (const cmd of visible) expect(named).toContain(cmd.name());
  });
});
