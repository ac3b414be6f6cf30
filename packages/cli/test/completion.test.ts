// Completion as a shell asks for it: each script is sourced in a real bash, zsh and fish, which
// call the built bin (through a `profile-articles` on PATH) for the words that fit.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pa-complete-'));
writeFileSync(join(dir, 'profile-articles'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
  mode: 0o755,
});
const home = mkdtempSync(join(tmpdir(), 'pa-complete-home-'));
const env = { PATH: `${dir}:${process.env.PATH}`, HOME: home, XDG_CONFIG_HOME: home };
// Stored profiles, where this HOME's CLI keeps them: completion offers their names.
mkdirSync(join(home, 'profile-articles'), { mode: 0o700 });
writeFileSync(
  join(home, 'profile-articles', 'config.json'),
  JSON.stringify({
    profiles: {
      default: { apiKey: 'pa_test_COMPLETE_0123456789', baseUrl: 'http://127.0.0.1:4010' },
      staging: { apiKeyIn: 'keyring', baseUrl: 'https://staging.example.com/api' },
      work: { baseUrl: 'https://api.example.com' },
    },
  }),
  { mode: 0o600 },
);
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

/**
 * zsh: the function runs with `words`/`CURRENT` set as the completion system sets them; compadd
 * prints each word, a tab, and what the menu shows for it (its `-d` display string).
 */
function zshDescribed(questions: string[][]): string[][] {
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
    // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh's expansions, not JavaScript's
    'compadd() { local -a d; while [[ $1 != -- ]]; do [[ $1 == -d ]] && { d=("${(@P)2}"); shift; }; shift; done; shift; local i; for (( i = 1; i <= $#; i++ )); do print -r -- "${@[i]}\t${d[i]}"; done; }',
    ...asks,
  ].join('\n');
  return answers(execFileSync('zsh', ['-f', '-c', program], { encoding: 'utf8', env }));
}
const zsh = (questions: string[][]) =>
  zshDescribed(questions).map((offered) => offered.map((l) => l.split('\t')[0]!).sort());

/** fish answers `complete -C` with what <TAB> would offer, each word a tab and its description. */
function fishDescribed(questions: string[][]): string[][] {
  const file = join(dir, 'complete.fish');
  writeFileSync(file, script('fish'));
  const asks = questions.map(
    (words) => `complete -C '${['profile-articles', ...words].join(' ')}'; echo -- ${END}`,
  );
  const program = [`source ${file}`, ...asks].join('\n');
  return answers(execFileSync('fish', ['--no-config', '-c', program], { encoding: 'utf8', env }));
}
const fish = (questions: string[][]) =>
  fishDescribed(questions).map((offered) => offered.map((l) => l.split('\t')[0]!).sort());

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
    expect(sub).toEqual(['get', 'list', 'path', 'set', 'unset', 'use']);
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
    ).toEqual([['generate'], ['generate'], ['generate'], ['get', 'list', 'path', 'set', 'unset', 'use']]);
  });
});

describe.each(Object.entries(SHELLS))('%s completion of profiles', (shell, ask) => {
  it.runIf(has(shell))('offers the stored profile names after --profile and config use', () => {
    const [flag, typed, joined, use, later] = ask([
      ['--profile', ''],
      ['credits', '--profile', 'st'],
      ['credits', '--profile=w'],
      ['config', 'use', ''],
      ['config', 'use', 'work', ''],
    ]);
    expect(flag).toEqual(['default', 'staging', 'work']);
    expect(typed).toEqual(['staging']);
    expect(joined).toEqual(['--profile=work']);
    expect(use).toEqual(['default', 'staging', 'work']);
    expect(later).toEqual([]);
  });
});

describe.each([
  ['zsh', zshDescribed, (word: string, about: string) => `${word}\t${word}  -- ${about}`],
  ['fish', fishDescribed, (word: string, about: string) => `${word}\t${about}`],
] as const)('%s descriptions', (shell, ask, line) => {
  it.runIf(has(shell))('shows each command’s, flag’s and profile’s one-line description', () => {
    const [commands, flags, profiles] = ask([['con'], ['login', '--ins'], ['--profile', 'sta']]);
    expect(commands).toEqual([
      line(
        'config',
        'read and change stored settings of a profile: api-key, base-url; list the profiles, choose the default',
      ),
    ]);
    expect(flags).toEqual([
      line(
        '--insecure-storage',
        'keep the key in the settings file (mode 0600) instead of the system keyring',
      ),
    ]);
    // The origin only (never a path or a password), and where the key is kept.
    expect(profiles).toEqual([line('staging', 'profile: https://staging.example.com, key in keyring')]);
  });
});
