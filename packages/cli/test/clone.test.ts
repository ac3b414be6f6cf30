// The CLI from a clone of the repository, started as its README says: `pnpm cli …`. There is no
// `profile-articles` on PATH, so what the CLI prints to copy must say `pnpm cli`, and completion
// must bring its own `profile-articles`. The hints run through pnpm itself, as a person runs them;
// the rest start the bin as the root `cli` script does, with what pnpm sets for it.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runInProcess } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'pa-clone-'));
// A PATH with node and pnpm but no profile-articles, as in a fresh clone.
const env = {
  PATH: process.env.PATH,
  HOME: home,
  PROFILE_ARTICLES_CONFIG_DIR: home,
};
const pnpm = (args: string[]) => promisify(execFile)('pnpm', args, { cwd: ROOT, env, encoding: 'utf8' });
// What `pnpm cli` runs: the root script's command, with the two variables pnpm sets for it. The
// hints test runs through pnpm itself and so proves pnpm sets them; the others start the same
// bin the same way without pnpm, whose own start took 12 s of a test's 20 on a loaded machine.
const SCRIPT_ENV = { ...env, npm_lifecycle_event: 'cli', npm_package_name: 'profile-articles' };
const CLI_SCRIPT = ['packages/cli/bin/profile-articles.cjs'];
const pnpmCli = (args: string[]) =>
  promisify(execFile)(process.execPath, [...CLI_SCRIPT, ...args], {
    cwd: ROOT,
    env: SCRIPT_ENV,
    encoding: 'utf8',
  });

describe('from a clone, through `pnpm cli`', () => {
  it('eval "$(pnpm -s cli completion bash)" gives a profile-articles command and its completion', async () => {
    const { stdout: script } = await pnpmCli(['completion', 'bash']);
    const program = [
      'command -v profile-articles >/dev/null && { echo "on PATH already"; exit 1; }',
      'eval "$SCRIPT"',
      'profile-articles --version',
      "COMP_LINE='profile-articles con'; COMP_POINT=${#COMP_LINE}; _profile_articles",
      'printf "%s\\n" "${COMPREPLY[@]}"',
      "COMP_LINE='profile-articles config '; COMP_POINT=${#COMP_LINE}; _profile_articles",
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    const { stdout } = await promisify(execFile)('bash', ['--norc', '-c', program], {
      env: { ...env, SCRIPT: script },
      cwd: home, // anywhere: the function names the clone's bin by its full path
      encoding: 'utf8',
    });
    const [version, ...offered] = stdout.trim().split('\n');
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(offered[0]).toBe('config');
    expect(offered.slice(1).sort()).toEqual(['get', 'list', 'path', 'set', 'unset', 'use']);
  });

  it('`pnpm cli mock` names `pnpm cli` in its next commands', async () => {
    const child = spawn(process.execPath, [...CLI_SCRIPT, 'mock', '--port', '0'], {
      cwd: ROOT,
      env: SCRIPT_ENV,
      detached: true,
    });
    // Stopped however the test ends (a timed-out test never reaches the SIGINT below).
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    });
    let stdout = '';
    // Read until the next steps are printed; a mock that ends first fails the test at once.
    await new Promise<void>((resolve, reject) => {
      const ended = (code: number | null) =>
        reject(new Error(`ended (${code}) with no next steps in: ${stdout}`));
      child.once('close', ended);
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('Stop it with Ctrl-C')) {
          child.off('close', ended);
          resolve();
        }
      });
    });
    process.kill(-child.pid!, 'SIGINT');
    await new Promise((resolve) => child.once('close', resolve));
    expect(stdout).toMatch(/^ {2}echo demo-key \| pnpm cli login --profile mock --base-url http:/m);
    expect(stdout).toContain('  pnpm cli generate ada-lovelace --profile mock');
    expect(stdout).not.toMatch(/^ {2}profile-articles /m);
  });

  it('the commands its hints and tips suggest say `pnpm cli` too', async () => {
    // Nothing set: the hint names `login`, as the person must type it from the clone.
    const failure = await pnpm(['-s', 'cli', 'credits']).then(
      () => {
        throw new Error('credits without an origin succeeded');
      },
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('`pnpm cli login --base-url URL`');
    expect(failure.stderr).not.toMatch(/[`|] ?profile-articles /);
    // The same hint in --json's error, in process with what `pnpm cli` sets.
    const json = await runInProcess(['--json', 'credits'], {
      env: SCRIPT_ENV,
    });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr.trim().split('\n').at(-1) ?? '').error.hint).toContain(
      '`pnpm cli login --base-url URL`',
    );
  });
});
