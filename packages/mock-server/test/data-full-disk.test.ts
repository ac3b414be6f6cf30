// --data on a full disk, over the real bin: a size limit (`ulimit -f`, with SIGXFSZ ignored so
// that a write past it comes out short and the next one fails with EFBIG) and a small tmpfs
// that fills up (ENOSPC), mounted in a mount namespace of the test's own (root only). A snapshot
// that cannot be written leaves the old snapshot and journal, and a stop says so and exits 1; a
// journal write that cannot be made answers 500 to its requests, whose changes are undone.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startMockBin } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it, onTestFinished } from 'vitest';
import { apiCaller, dataFolder } from './data-harness.js';

const KEY = 'full-disk-key-0001';
const OPENING = 1_000_000;
const PHASE_MS = 10 * 60_000;

const folder = () => dataFolder('mock-full-', KEY, OPENING, PHASE_MS);

/** The mock over `where`, its file size capped at `blocks` KiB when given (SIGXFSZ ignored). */
const start = (where: { dir: string; config: string }, blocks?: number, prefix: string[] = []) =>
  startMockBin(
    'profile-articles-mock',
    ['--port', '0', '--no-log', '--config', where.config, '--data', where.dir],
    process.env,
    blocks === undefined
      ? prefix
      : [...prefix, 'bash', '-c', `trap '' XFSZ; ulimit -f ${blocks}; exec "$0" "$@"`],
  );

const call = apiCaller(KEY);

const generate = (url: string, name: string) =>
  call(url, 'POST', '/api/v1/articles', { profile_id: `p-${name}` }, `k-${name}`);

async function generateAll(url: string, names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const started = await generate(url, name);
    expect(started.status).toBe(202);
    ids.push(started.body.job_id);
  }
  return ids;
}

const balance = async (url: string) => (await call(url, 'GET', '/api/v1/credits')).body.credits;

/** Jobs answered before the stop are all there after the restart, each with its own key. */
async function expectJobs(url: string, names: string[], ids: string[]) {
  for (const [i, name] of names.entries()) {
    const replay = await generate(url, name);
    expect(replay.body.job_id).toBe(ids[i]);
  }
}

// A mount namespace of the test's own with a small tmpfs in it, held by a sleeping process:
// each mock enters it with nsenter, the test reads and fills it through /proc/PID/root.
const canMount =
  process.getuid?.() === 0 &&
  spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']).status === 0 &&
  spawnSync('nsenter', ['--version']).status === 0;

async function smallDisk(size: string) {
  const where = folder();
  spawnSync('mkdir', ['-p', `${where.root}/disk`]);
  const holder = spawn(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      'sh',
      '-c',
      `mount -t tmpfs -o size=${size},mode=0755 tmpfs ${where.root}/disk && echo mounted && exec sleep 600`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  onTestFinished(() => {
    holder.kill('SIGKILL');
  });
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on('data', (chunk) => String(chunk).includes('mounted') && resolve());
    holder.once('exit', (code) => reject(new Error(`unshare ended (${code})`)));
  });
  const inside = (path: string) => `/proc/${holder.pid}/root${path}`;
  const disk = { ...where, dir: `${where.root}/disk/data` };
  return {
    where: disk,
    inside,
    prefix: ['nsenter', `--target=${holder.pid}`, '--mount', '--'],
    /** Fills the tmpfs to its last byte. */
    fill: () =>
      spawnSync('sh', ['-c', `cat /dev/zero > ${inside(`${where.root}/disk/filler`)} 2>/dev/null; true`]),
    free: () => rmSync(inside(`${where.root}/disk/filler`), { force: true }),
  };
}

describe('profile-articles-mock --data on a full disk', () => {
  it('a snapshot cut short at stop (ulimit -f) leaves the old snapshot and journal, says so and exits 1', async () => {
    const where = folder();
    const first = start(where);
    const before = await generateAll(await first.url, ['a', 'b', 'c']);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const oldSnapshot = readFileSync(join(where.dir, 'snapshot.json'));

    // Under a 4 KiB limit: the journal of eight generates fits, a snapshot of eleven articles does not.
    const second = start(where, 4);
    const url = await second.url;
    const names = ['d', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    const after = await generateAll(url, names);
    await call(url, 'POST', '/_mock/clock/advance', { ms: 3 * PHASE_MS });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`could not write its snapshot in the data folder ${where.dir}`);
    expect(second.stderr()).toContain('EFBIG');
    expect(second.stderr()).toContain('nothing answered is lost');
    expect(readFileSync(join(where.dir, 'snapshot.json')).equals(oldSnapshot)).toBe(true);
    expect(existsSync(join(where.dir, 'snapshot.json.tmp'))).toBe(false);

    const third = start(where);
    const again = await third.url;
    expect(await balance(again)).toBe(OPENING - 100 * 11);
    await expectJobs(again, ['a', 'b', 'c', ...names], [...before, ...after]);
    const job = await call(again, 'GET', `/api/v1/jobs/${after[7]}`);
    expect(job.body.status).toBe('succeeded');
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  });

  it('a journal write cut short (ulimit -f) answers 500 naming the folder and EFBIG; nothing of it stays', async () => {
    const where = folder();
    // 2 KiB: the header and about six generates' records fit, the next write crosses it.
    const first = start(where, 2);
    const url = await first.url;
    const answered: string[] = [];
    const ids: string[] = [];
    let refused: { status: number; body: any } | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const started = await generate(url, String(i));
      if (started.status === 202) {
        answered.push(String(i));
        ids.push(started.body.job_id);
      } else refused = started;
    }
    expect(refused?.status).toBe(500);
    expect(refused?.body.detail).toContain(`data folder ${where.dir}`);
    expect(refused?.body.detail).toContain('EFBIG');
    const lost = String(answered.length);
    // Undone in memory: no credits reserved for it, and the same key does not replay a job.
    expect(await balance(url)).toBe(OPENING - 100 * answered.length);
    expect((await generate(url, lost)).status).toBe(500);
    expect(await balance(url)).toBe(OPENING - 100 * answered.length);
    // The file holds whole records only: what came out of the short write was cut off.
    expect(readFileSync(join(where.dir, 'journal.log'), 'utf8').endsWith('\n')).toBe(true);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = start(where);
    const again = await second.url;
    expect(second.stderr()).not.toContain('cut');
    expect(await balance(again)).toBe(OPENING - 100 * answered.length);
    await expectJobs(again, answered, ids);
    // The refused request was never kept: retried with its key, it starts a job now.
    const retried = await generate(again, lost);
    expect(retried.status).toBe(202);
    expect(ids).not.toContain(retried.body.job_id);
    expect(await balance(again)).toBe(OPENING - 100 * (answered.length + 1));
  });

  it.skipIf(!canMount)(
    'ENOSPC on a small tmpfs: a stop keeps the old snapshot and exits 1, and the next start has everything',
    async () => {
      const disk = await smallDisk('1m');
      const first = start(disk.where, undefined, disk.prefix);
      const before = await generateAll(await first.url, ['a', 'b']);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      const snapshot = disk.inside(join(disk.where.dir, 'snapshot.json'));
      const oldSnapshot = readFileSync(snapshot);

      const second = start(disk.where, undefined, disk.prefix);
      const url = await second.url;
      const after = await generateAll(url, ['c', 'd', 'e']);
      await call(url, 'POST', '/_mock/clock/advance', { ms: 3 * PHASE_MS });
      disk.fill();
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(1);
      expect(second.stderr()).toContain('ENOSPC');
      expect(readFileSync(snapshot).equals(oldSnapshot)).toBe(true);
      expect(existsSync(`${snapshot}.tmp`)).toBe(false);
      disk.free();

      const third = start(disk.where, undefined, disk.prefix);
      const again = await third.url;
      expect(await balance(again)).toBe(OPENING - 500);
      await expectJobs(again, ['a', 'b', 'c', 'd', 'e'], [...before, ...after]);
      third.child.kill('SIGTERM');
      expect(await third.exited).toBe(0);
    },
  );

  it.skipIf(!canMount)(
    'ENOSPC on a journal append: 500, the change undone in the running mock, and kept once the disk has room',
    async () => {
      const disk = await smallDisk('1m');
      const first = start(disk.where, undefined, disk.prefix);
      const url = await first.url;
      const names = ['a'];
      const ids = await generateAll(url, names);
      disk.fill();
      // Appends go on into the journal's last page until it is full; the next one fails.
      let refused: { status: number; body: any } | undefined;
      for (let i = 0; i < 40 && !refused; i++) {
        const started = await generate(url, `b${i}`);
        if (started.status === 202) {
          names.push(`b${i}`);
          ids.push(started.body.job_id);
        } else refused = started;
      }
      expect(refused?.status).toBe(500);
      expect(refused?.body.detail).toContain(`data folder ${disk.where.dir}`);
      expect(refused?.body.detail).toContain('ENOSPC');
      const lost = `b${names.length - 1}`;
      expect(await balance(url)).toBe(OPENING - 100 * names.length);
      disk.free();
      // Room again: the same key starts its job now, charged once, and the next start has it.
      const retried = await generate(url, lost);
      expect(retried.status).toBe(202);
      expect(ids).not.toContain(retried.body.job_id);
      names.push(lost);
      ids.push(retried.body.job_id);
      expect(await balance(url)).toBe(OPENING - 100 * names.length);
      first.child.kill('SIGKILL');
      await first.exited;

      const second = start(disk.where, undefined, disk.prefix);
      const again = await second.url;
      expect(await balance(again)).toBe(OPENING - 100 * names.length);
      await expectJobs(again, names, ids);
    },
  );
});
