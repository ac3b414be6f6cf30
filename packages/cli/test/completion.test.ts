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

/**
 * What bash offers for `profile-articles <words>` with the cursor at the end of the last word.
 * COMP_WORDS is split as bash splits it, at blanks and at COMP_WORDBREAKS such as `:` and `=`
 * (so a URL is three words), with COMP_LINE and COMP_POINT set as bash sets them.
 */
function bash(words: string[]): string[] {
  const file = join(dir, 'complete.bash');
  writeFileSync(file, script('bash'));
  const line = ['profile-articles', ...words].join(' ');
  const compWords = ['profile-articles', ...words].flatMap((w) =>
    w === '' ? [''] : w.split(/([:=])/).filter(Boolean),
  );
  const quoted = compWords.map((w) => `'${w}'`).join(' ');
  const program = `source ${file}; COMP_LINE='${line}'; COMP_POINT=${line.length}; COMP_WORDS=(${quoted}); COMP_CWORD=${compWords.length - 1}; _profile_articles; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return lines(execFileSync('bash', ['--norc', '-c', program], { encoding: 'utf8', env }));
}

/** zsh: the function runs with `words`/`CURRENT` set as the completion system sets them; compadd prints. */
function zsh(words: string[]): string[] {
  const file = join(dir, '_profile-articles');
  writeFileSync(file, script('zsh'));
  const quoted = ['profile-articles', ...words].map((w) => `'${w}'`).join(' ');
  const program = `autoload -U compinit; compinit -u -d ${dir}/zcompdump; source ${file}; compadd() { shift; print -l -- "$@"; }; words=(${quoted}); CURRENT=${words.length + 1}; _profile_articles`;
  return lines(execFileSync('zsh', ['-f', '-c', program], { encoding: 'utf8', env }));
}

/** fish answers `complete -C` with what <TAB> would offer. */
function fish(words: string[]): string[] {
  const file = join(dir, 'complete.fish');
  writeFileSync(file, script('fish'));
  const line = ['profile-articles', ...words].join(' ');
  const program = `source ${file}; complete -C '${line}'`;
  return lines(execFileSync('fish', ['--no-config', '-c', program], { encoding: 'utf8', env }))
    .map((l) => l.split('\t')[0]!)
    .sort();
}

const SHELLS = { bash, zsh, fish };

describe.each(Object.entries(SHELLS))('%s completion', (shell, ask) => {
  it.runIf(has(shell))('offers commands, subcommands, setting names and flags', () => {
    expect(ask(['gen'])).toEqual(['generate']);
    expect(ask(['config', ''])).toEqual(['get', 'path', 'set', 'unset']);
    expect(ask(['config', 'set', ''])).toEqual(['api-key', 'base-url']);
    expect(ask(['completion', ''])).toEqual(['bash', 'fish', 'zsh']);
    expect(ask(['generate', 'ada', '--'])).toEqual(
      expect.arrayContaining(['--no-wait', '--idempotency-key', '--json']),
    );
    expect(ask(['buy', '10', '--ti'])).toEqual(['--timeout']);
  });

  it.runIf(has(shell))('works after global options placed before the command', () => {
    expect(ask(['--json', 'gen'])).toEqual(['generate']);
    // A URL holds `:`, where bash's own word list splits.
    expect(ask(['--base-url', 'http://x', 'gen'])).toEqual(['generate']);
    expect(ask(['--base-url=http://x', 'gen'])).toEqual(['generate']);
    expect(ask(['--base-url', 'http://127.0.0.1:4010', 'config', ''])).toEqual([
      'get',
      'path',
      'set',
      'unset',
    ]);
  });
});
