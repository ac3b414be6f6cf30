// Completion as a shell asks for it: each script is sourced in a real bash, zsh and fish, which
// call the built bin (through a `profile-articles` on PATH) for the words that fit.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pa-complete-'));
writeFileSync(join(dir, 'profile-articles'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
  mode: 0o755,
});
const env = { PATH: `${dir}:${process.env.PATH}`, HOME: dir, XDG_CONFIG_HOME: dir };
const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const scripts = new Map<string, string>();
const script = (shell: string) => {
  if (!scripts.has(shell)) scripts.set(shell, execFileSync(BIN, ['completion', shell], { encoding: 'utf8' }));
  return scripts.get(shell)!;
};
/** Sorted: fish sorts what it offers, bash and zsh keep our order. */
const lines = (text: string) => text.split('\n').filter(Boolean).sort();

// Each shell is started once for all the questions of a test, which it answers in turn, each
// answer ended by this line: a shell and zsh's compinit cost more to start than an answer costs.
const END = '--end-of-answer--';
/** The shell's output cut at each END: one list of words per question. */
const answers = (output: string) => output.split(`${END}\n`).slice(0, -1).map(lines);
const quote = (words: string[]) => words.map((w) => `'${w}'`).join(' ');

/**
 * What bash offers for `profile-articles <words>` with the cursor at the end of the last word.
 * COMP_WORDS is split as bash splits it, at blanks and at COMP_WORDBREAKS such as `:` and `=`
 * (so a URL is three words), with COMP_LINE and COMP_POINT set as bash sets them.
 */
function bash(questions: string[][]): string[][] {
  const file = join(dir, 'complete.bash');
  writeFileSync(file, script('bash'));
  const asks = questions.map((words) => {
    const line = ['profile-articles', ...words].join(' ');
    const compWords = ['profile-articles', ...words].flatMap((w) =>
      w === '' ? [''] : w.split(/([:=])/).filter(Boolean),
    );
    return `COMP_LINE='${line}'; COMP_POINT=${line.length}; COMP_WORDS=(${quote(compWords)}); COMP_CWORD=${compWords.length - 1}; COMPREPLY=(); _profile_articles; printf '%s\\n' "\${COMPREPLY[@]}" ${END}`;
  });
  const program = [`source ${file}`, ...asks].join('\n');
  return answers(execFileSync('bash', ['--norc', '-c', program], { encoding: 'utf8', env }));
}

/** zsh: the function runs with `words`/`CURRENT` set as the completion system sets them; compadd prints. */
function zsh(questions: string[][]): string[][] {
  const file = join(dir, '_profile-articles');
  writeFileSync(file, script('zsh'));
  const asks = questions.map((words) => {
    const all = ['profile-articles', ...words];
    return `words=(${quote(all)}); CURRENT=${all.length}; _profile_articles; print -- ${END}`;
  });
  const program = [
    // compinit for its compdef, with only compinit's own folder on fpath and no audit (-C) or
    // dump (-D): scanning and auditing zsh's 1,200 completion functions took 1 to 2 s a shell,
    // over 10 s on a loaded machine, and this script calls none of them.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh's expansion, not JavaScript's
    'fpath=(${^fpath}/compinit(N:h)); autoload -U compinit; compinit -C -D',
    `source ${file}`,
    'compadd() { shift; print -l -- "$@"; }',
    ...asks,
  ].join('\n');
  return answers(execFileSync('zsh', ['-f', '-c', program], { encoding: 'utf8', env }));
}

/** fish answers `complete -C` with what <TAB> would offer. */
function fish(questions: string[][]): string[][] {
  const file = join(dir, 'complete.fish');
  writeFileSync(file, script('fish'));
  const asks = questions.map(
    (words) => `complete -C '${['profile-articles', ...words].join(' ')}'; echo -- ${END}`,
  );
  const program = [`source ${file}`, ...asks].join('\n');
  return answers(execFileSync('fish', ['--no-config', '-c', program], { encoding: 'utf8', env })).map(
    (offered) => offered.map((l) => l.split('\t')[0]!).sort(),
  );
}

const SHELLS = { bash, zsh, fish };

describe.each(Object.entries(SHELLS))('%s completion', (shell, ask) => {
  it.runIf(has(shell))('offers commands, subcommands, setting names and flags', () => {
    const [command, sub, setting, shells, flags, flag] = ask([
      ['gen'],
      ['config', ''],
      ['config', 'set', ''],
      ['completion', ''],
      ['generate', 'ada', '--'],
      ['buy', '10', '--ti'],
    ]);
    expect(command).toEqual(['generate']);
    expect(sub).toEqual(['get', 'list', 'path', 'set', 'unset']);
    expect(setting).toEqual(['api-key', 'base-url']);
    expect(shells).toEqual(['bash', 'fish', 'zsh']);
    expect(flags).toEqual(expect.arrayContaining(['--no-wait', '--idempotency-key', '--json']));
    expect(flag).toEqual(['--timeout']);
  });

  it.runIf(has(shell))(
    'after a command, offers the options that affect it, and help offers the guides',
    () => {
      const [buy, read, root, help] = ask([['buy', '--'], ['read', 'x', '--no'], ['--v'], ['help', 'e']]);
      // No --version (the program's, not buy's) and no --no-pager (buy shows no article).
      expect(buy).toEqual(
        [
          '--base-url',
          '--help',
          '--jq',
          '--json',
          '--open',
          '--poll-interval',
          '--profile',
          '--timeout',
          '--verbose',
          '--wait',
        ].sort(),
      );
      expect(read).toEqual(['--no-pager']);
      expect(root).toEqual(['--verbose', '--version']);
      expect(help).toEqual(['environment', 'exit-codes']);
    },
  );

  it.runIf(has(shell))('works after global options placed before the command', () => {
    // A URL holds `:`, where bash's own word list splits.
    expect(
      ask([
        ['--json', 'gen'],
        ['--base-url', 'http://x', 'gen'],
        ['--base-url=http://x', 'gen'],
        ['--base-url', 'http://127.0.0.1:4010', 'config', ''],
      ]),
    ).toEqual([['generate'], ['generate'], ['generate'], ['get', 'list', 'path', 'set', 'unset']]);
  });
});
