// What a start over a --data folder does with a journal.log it did not write whole: another
// program's file is refused, as another program's snapshot.json is; a record damaged in the
// middle (one flipped byte) refuses the start, naming where and --data-recover, rather than
// cutting every later record as a torn tail; --data-recover keeps every readable record and
// the damaged file beside it. Over both bins: the CLI's `profile-articles mock` takes the flag too.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK_BIN_KINDS, type MockBinKind } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it } from 'vitest';
import { apiCaller, dataFolder, startWithData } from './data-harness.js';

const KEY = 'journal-key-0001';
const OPENING = 10_000;

const folder = () => dataFolder('mock-journal-', KEY, OPENING, 600_000);

const start = (kind: MockBinKind, where: { dir: string; config: string }, ...extra: string[]) =>
  startWithData(where, extra, kind);

const call = apiCaller(KEY);

/** Eight answered generates in the journal (the mock killed, so no snapshot takes them in). */
async function eightJobs(kind: MockBinKind, where: { dir: string; config: string }): Promise<string[]> {
  const mock = start(kind, where);
  const url = await mock.url;
  const jobs: string[] = [];
  for (let i = 1; i <= 8; i++) {
    const answer = await call(url, 'POST', '/api/v1/articles', { profile_id: `p${i}` }, `k${i}`);
    expect(answer.status).toBe(202);
    jobs.push(answer.body.job_id);
  }
  mock.child.kill('SIGKILL');
  await mock.exited;
  return jobs;
}

/** The exit code of a mock expected to refuse its start; 'started' (at once) if it served instead. */
const refusal = (mock: ReturnType<typeof start>) =>
  Promise.race([mock.exited, mock.url.then(() => 'started' as const)]);

/** Where each line of the file starts, in bytes. */
function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.length - 1; i++) if (bytes[i] === 10) starts.push(i + 1);
  return starts;
}

describe.each(MOCK_BIN_KINDS)('%s --data, journal.log', (kind) => {
  it('refuses a journal.log another program wrote, leaving it as it was', async () => {
    const where = folder();
    mkdirSync(where.dir, { recursive: true });
    const journal = join(where.dir, 'journal.log');
    const foreign = '2026-12-01 04:00:00 INFO server started\n2026-12-01 04:00:01 INFO ready\n';
    writeFileSync(journal, foreign);
    const mock = start(kind, where);
    expect(await refusal(mock)).toBe(1);
    expect(mock.stderr()).toContain(`journal.log in ${where.dir} is not one this mock wrote`);
    expect(mock.stderr()).toContain('move it away');
    expect(mock.stdout()).not.toContain('listening');
    expect(readFileSync(journal, 'utf8')).toBe(foreign);
  });

  it("refuses another folder's journal.log put beside this folder's snapshot", async () => {
    const mine = folder();
    const other = folder();
    await eightJobs(kind, other);
    const first = start(kind, mine);
    await call(await first.url, 'POST', '/api/v1/articles', { profile_id: 'x' }, 'kx');
    first.child.kill('SIGTERM'); // a snapshot, and a fresh journal
    expect(await first.exited).toBe(0);
    const theirs = readFileSync(join(other.dir, 'journal.log'));
    writeFileSync(join(mine.dir, 'journal.log'), theirs);
    const mock = start(kind, mine);
    expect(await refusal(mock)).toBe(1);
    expect(mock.stderr()).toContain(`journal.log in ${mine.dir} is not one this mock wrote`);
    expect(readFileSync(join(mine.dir, 'journal.log')).equals(theirs)).toBe(true);
  });
});

describe('--data, a damaged record in the middle of journal.log', () => {
  it('refuses the start naming the byte offset and --data-recover, then --data-recover keeps every readable record', async () => {
    const where = folder();
    const jobs = await eightJobs('profile-articles-mock', where);
    const journal = join(where.dir, 'journal.log');
    const original = readFileSync(journal);
    const starts = lineStarts(original);
    expect(starts).toHaveLength(9); // the header, then a line per generate
    // One byte of the second generate's line flipped, inside its JSON.
    const damaged = Buffer.from(original);
    const at = (starts[2] as number) + 30;
    damaged[at] = (damaged[at] as number) ^ 0x01;
    writeFileSync(journal, damaged);

    const refused = start('profile-articles-mock', where);
    expect(await refusal(refused)).toBe(1);
    expect(refused.stderr()).toContain(`byte ${starts[2]}`);
    expect(refused.stderr()).toContain('--data-recover');
    expect(refused.stdout()).not.toContain('listening');
    // Refused, nothing was cut: the file is as it was.
    expect(readFileSync(journal).equals(damaged)).toBe(true);

    const recovering = start('profile-articles mock', where, '--data-recover');
    const url = await recovering.url;
    const kept = readdirSync(where.dir).filter((name) => name.startsWith('journal.log.bad-'));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^journal\.log\.bad-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(readFileSync(join(where.dir, kept[0] as string)).equals(damaged)).toBe(true);
    expect(recovering.stderr()).toContain('kept 7 readable records');
    expect(recovering.stderr()).toContain(kept[0]);
    // The seven whole ones are there, keys and all; the damaged one is gone (its credits back).
    for (const [i, jobId] of jobs.entries()) {
      const status = (await call(url, 'GET', `/api/v1/jobs/${jobId}`)).status;
      expect([i, status]).toEqual([i, i === 1 ? 404 : 200]);
    }
    const replay = await call(url, 'POST', '/api/v1/articles', { profile_id: 'p8' }, 'k8');
    expect(replay.body.job_id).toBe(jobs[7]);
    const ledger = (await call(url, 'GET', '/_mock/ledger')).body.accounts[0];
    expect(ledger.reserved).toBe(700);
    recovering.child.kill('SIGKILL');
    await recovering.exited;

    // What it recovered is the journal now: a plain start finds it, without the flag.
    const again = start('profile-articles-mock', where);
    const later = await again.url;
    expect((await call(later, 'GET', `/api/v1/jobs/${jobs[7]}`)).status).toBe(200);
    expect(again.stderr()).not.toContain('--data-recover');
  });

  it('still cuts a torn last line without asking for --data-recover, the records before it kept', async () => {
    const where = folder();
    const jobs = await eightJobs('profile-articles-mock', where);
    const journal = join(where.dir, 'journal.log');
    const original = readFileSync(journal);
    const starts = lineStarts(original);
    // The last line's checksum fails (one byte flipped) and nothing follows it: a torn write.
    const damaged = Buffer.from(original);
    const at = (starts[8] as number) + 30;
    damaged[at] = (damaged[at] as number) ^ 0x01;
    writeFileSync(journal, damaged);
    const mock = start('profile-articles-mock', where);
    const url = await mock.url;
    expect(mock.stderr()).toMatch(/cut \d+ bytes after the journal's last whole record/);
    expect((await call(url, 'GET', `/api/v1/jobs/${jobs[6]}`)).status).toBe(200);
    expect((await call(url, 'GET', `/api/v1/jobs/${jobs[7]}`)).status).toBe(404);
    expect(readdirSync(where.dir).some((name) => name.startsWith('journal.log.bad-'))).toBe(false);
    expect(existsSync(journal)).toBe(true);
  });
});
