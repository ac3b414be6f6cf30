// The batch state file's lock across PID namespaces (two containers sharing a volume): a batch
// whose lock is held from another namespace is refused while the holder keeps it fresh, and
// takes it over once nobody has touched it for more than 10 s (root, unshare --pid); one held in this
// namespace by a stopped process is never taken by age.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CliError } from '../errors/errors.js';
import { lockStateFile } from './lock.js';

const LOCK_ENTRY = fileURLToPath(new URL('../../../mock-server/dist/files.js', import.meta.url));
const canUnshare =
  process.getuid?.() === 0 && spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;

/** Holds `path`'s lock from a PID namespace of its own (as pid 1), until the test ends. */
async function holdFromAnotherNamespace(path: string): Promise<ChildProcess> {
  const script = `import(${JSON.stringify(LOCK_ENTRY)}).then((m) => { m.takeLock(${JSON.stringify(path)}); console.log('held'); setInterval(() => {}, 1000); })`;
  const child = spawn(
    'unshare',
    ['--pid', '--fork', '--mount-proc', '--kill-child', process.execPath, '-e', script],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await new Promise((resolve, reject) => {
    child.stdout?.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before it held the lock`)));
  });
  return child;
}

const refusal = (statePath: string) => {
  try {
    lockStateFile(statePath)();
    return 'taken';
  } catch (error) {
    if (error instanceof CliError) return error.message;
    throw error;
  }
};

describe.skipIf(!canUnshare)('the batch lock across PID namespaces (root: unshare --pid)', () => {
  it('refuses a batch while the holder runs in another PID namespace, and takes over a lock untouched for 10 s', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'batch-lock-')), 'list.state.jsonl');
    const holder = await holdFromAnotherNamespace(`${state}.lock`);
    expect(readFileSync(`${state}.lock`, 'utf8')).toMatch(/^1 /);
    expect(refusal(state)).toContain('Another batch (pid 1 in another container, PID namespace or boot)');
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const old = new Date(Date.now() - 11_000);
    utimesSync(`${state}.lock`, old, old);
    const unlock = lockStateFile(state);
    expect(statSync(`${state}.lock`).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${state}.lock`, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    unlock();
  });
});

describe('the batch lock held in this namespace', () => {
  it('is not taken from a batch stopped (kill -STOP) for longer than 10 s: its pid still runs', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'batch-lock-')), 'list.state.jsonl');
    const script = `import(${JSON.stringify(LOCK_ENTRY)}).then((m) => { m.takeLock(${JSON.stringify(`${state}.lock`)}); console.log('held'); setInterval(() => {}, 1000); })`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    await new Promise((resolve) => child.stdout?.once('data', resolve));
    child.kill('SIGSTOP');
    try {
      const old = new Date(Date.now() - 12_000);
      utimesSync(`${state}.lock`, old, old);
      expect(refusal(state)).toContain(`Another batch (pid ${child.pid})`);
    } finally {
      child.kill('SIGCONT');
    }
  });
});
