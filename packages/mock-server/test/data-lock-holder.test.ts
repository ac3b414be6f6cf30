// --data's mock.lock held by a mock that cannot run for a while (kill -STOP) or whose lock was
// taken from it: a lock whose holder runs in this boot and PID namespace is never taken over by
// age, a zombie holder counts as gone, and a holder that lost its lock writes nothing more.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockBin } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it } from 'vitest';
import { apiCaller } from './data-harness.js';

const folder = () => join(mkdtempSync(join(tmpdir(), 'mock-lock-holder-')), 'data');
const call = apiCaller('demo-key');
const start = (dir: string) =>
  startMockBin('profile-articles-mock', ['--port', '0', '--no-log', '--data', dir]);

describe('mock.lock and its holder', () => {
  it('refuses a second mock while the holder is stopped (kill -STOP) and its lock is over 10 s old', async () => {
    const dir = folder();
    const first = start(dir);
    await first.url;
    first.child.kill('SIGSTOP');
    try {
      // As if it had been stopped for 12 s: its pid still runs here, so age alone says nothing.
      const old = new Date(Date.now() - 12_000);
      utimesSync(join(dir, 'mock.lock'), old, old);
      const second = start(dir);
      expect(await Promise.race([second.exited, second.url.then(() => 'started')])).toBe(1);
      expect(second.stderr()).toContain(`Another mock (process ${first.child.pid})`);
    } finally {
      first.child.kill('SIGCONT');
    }
  });

  it('takes over at once a lock whose holder is a zombie (killed, not yet reaped)', async () => {
    const dir = folder();
    // A parent that never reaps its child: the killed mock stays a zombie.
    const parent = spawn(
      'sh',
      [
        '-c',
        `${JSON.stringify(process.execPath)} ${JSON.stringify(join(__dirname, '..', 'dist', 'bin.js'))} --port 0 --no-log --data ${JSON.stringify(dir)} > /dev/null 2>&1 & echo $!; exec sleep 60`,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      const pid = Number(
        await new Promise<string>((resolve) => parent.stdout.once('data', (d) => resolve(String(d)))),
      );
      while (!readFileSafe(join(dir, 'mock.lock')).startsWith(`${pid} `))
        await new Promise((r) => setTimeout(r, 50));
      process.kill(pid, 'SIGKILL');
      while (!readFileSafe(`/proc/${pid}/stat`).includes(') Z')) await new Promise((r) => setTimeout(r, 20));
      const second = start(dir);
      expect(await Promise.race([second.exited, second.url.then(() => 'started')])).toBe('started');
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('writes nothing more once another mock has taken its lock: 500 naming the folder, stderr says so', async () => {
    const dir = folder();
    const first = start(dir);
    const firstUrl = await first.url;
    rmSync(join(dir, 'mock.lock'));
    const second = start(dir);
    const secondUrl = await second.url;
    const made = await call(secondUrl, 'POST', '/api/v1/articles', { profile_id: 'p-second' }, 'k-second');
    expect(made.status).toBe(202);
    const lost = await call(firstUrl, 'POST', '/api/v1/articles', { profile_id: 'p-first' }, 'k-first');
    expect(lost.status).toBe(500);
    expect(lost.body.detail).toContain(dir);
    expect(lost.body.detail).toContain('another mock');
    expect(first.stderr()).toContain('another mock');
    // Its stop leaves the other's files alone.
    first.child.kill('SIGTERM');
    await first.exited;
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const third = start(dir);
    const thirdUrl = await third.url;
    const job = await call(thirdUrl, 'GET', `/api/v1/jobs/${made.body.job_id}`);
    expect(job.status).toBe(200);
    expect(readFileSync(join(dir, 'journal.log'), 'utf8')).not.toContain('p-first');
  });
});

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
