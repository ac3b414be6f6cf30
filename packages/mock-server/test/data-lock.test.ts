// --data's mock.lock across PID namespaces (two containers sharing a volume): a second mock is
// refused while the holder runs in another namespace, though its pid means nothing here (both
// are pid 1); the holder touches the lock every second; a lock nobody has touched for more than
// 10 s is taken over. And the lock is never a link: one planted there is refused, not followed.
// Needs root for `unshare --pid --fork --mount-proc`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '@profile-articles/mock-server';
import { MOCK_BIN, startMockBin } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it, onTestFinished } from 'vitest';

const canUnshare =
  process.getuid?.() === 0 && spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;

/** The mock bin in a PID namespace of its own, killed with its `unshare` at the test's end. */
function inNamespace(dir: string) {
  const child: ChildProcess = spawn(
    'unshare',
    [
      '--pid',
      '--fork',
      '--mount-proc',
      '--kill-child',
      process.execPath,
      MOCK_BIN,
      '--port',
      '0',
      '--no-log',
      '--data',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout);
      if (found) resolve(found[0]);
    });
    void exited.then(() => reject(new Error(`ended before serving: ${stderr}`)));
  });
  url.catch(() => undefined);
  const outcome = Promise.race([exited, url.then(() => 'started' as const)]);
  return { child, url, exited, outcome, stderr: () => stderr };
}

const folder = () => join(mkdtempSync(join(tmpdir(), 'mock-lock-')), 'data');
const lockOf = (dir: string) => join(dir, 'mock.lock');

describe.skipIf(!canUnshare)('mock.lock across PID namespaces (root: unshare --pid)', () => {
  it('refuses a second mock while the holder runs in another PID namespace, its lock kept fresh', async () => {
    const dir = folder();
    const first = inNamespace(dir);
    const url = await first.url;
    const lock = lockOf(dir);
    expect(statSync(lock).mode & 0o777).toBe(0o600);
    expect(readFileSync(lock, 'utf8')).toMatch(/^1 [\w-]+ \d+\n$/);
    // Made to look 20 s old: the holder touches it again within a second or so.
    const old = new Date(Date.now() - 20_000);
    utimesSync(lock, old, old);
    while (Date.now() - statSync(lock).mtimeMs > 5_000)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const second = inNamespace(dir);
    expect(await second.outcome).toBe(1);
    expect(second.stderr()).toContain('Another mock (process 1 in another container, PID namespace or boot)');
    // And from this namespace too.
    const third = startMockBin('profile-articles-mock', ['--port', '0', '--no-log', '--data', dir]);
    expect(await Promise.race([third.exited, third.url.then(() => 'started')])).toBe(1);
    expect(
      (await fetch(`${url}/api/v1/credits`, { headers: { authorization: 'Bearer demo-key' } })).status,
    ).toBe(200);
  });

  it("takes over another namespace's lock once nobody has touched it for more than 10 s", async () => {
    const dir = folder();
    const first = inNamespace(dir);
    await first.url;
    first.child.kill('SIGKILL'); // its mock with it (--kill-child): the lock stays behind
    await first.exited;
    const lock = lockOf(dir);
    const fresh = new Date(Date.now() - 2_000);
    utimesSync(lock, fresh, fresh);
    const early = inNamespace(dir);
    expect(await early.outcome).toBe(1);
    const old = new Date(Date.now() - 11_000);
    utimesSync(lock, old, old);
    const second = inNamespace(dir);
    expect(await second.outcome).toBe('started');
  });
});

describe('mock.lock', () => {
  it('refuses a second server on the same folder in the same process', async () => {
    const dir = folder();
    const first = await startMockServer({ port: 0, config: { dataDir: dir } });
    try {
      await expect(startMockServer({ port: 0, config: { dataDir: dir } })).rejects.toThrow(
        `Another mock (process ${process.pid}) is using the data folder`,
      );
    } finally {
      await first.close();
    }
    // Let go on close: the folder is free again.
    const again = await startMockServer({ port: 0, config: { dataDir: dir } });
    await again.close();
  });

  it('is never followed through a link planted in its place', async () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    const victim = join(dir, '..', 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    symlinkSync(victim, lockOf(dir));
    const mock = startMockBin('profile-articles-mock', ['--port', '0', '--no-log', '--data', dir]);
    expect(await Promise.race([mock.exited, mock.url.then(() => 'started')])).toBe(1);
    expect(mock.stderr()).toContain('mock.lock');
    expect(mock.stderr()).toContain('it is a link, not a file');
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
  });
});
