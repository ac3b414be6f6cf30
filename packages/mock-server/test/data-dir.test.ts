// --data DIR over real processes: a paid burst of generates, reads, checkouts and payments,
// the mock stopped at a random point of it (SIGTERM, or SIGKILL with requests in flight), then
// started again over the folder. Every answered request's effect must be there (its job, its
// key's replay, its read's charge, its payment) and the ledger must add up. A journal whose last
// line a crash cut short, followed by garbage, is cut back at start; a second mock on the same
// folder refuses; the clock keeps its advances across a restart.
import { appendFileSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiCaller, dataFolder, startWithData } from './data-harness.js';

const KEY = 'data-dir-key-0001';
const OPENING = 1_000_000;
// Jobs stay active until a test moves the clock: a restart meets queued, running and ended ones.
const PHASE_MS = 10 * 60_000;

const folder = () => dataFolder('mock-data-', KEY, OPENING, PHASE_MS);

const start = (where: { dir: string; config: string }) => startWithData(where);

const call = apiCaller(KEY);

/** What the burst saw answered: the effects that must outlive the stop. */
interface Answered {
  jobs: Array<{ key: string; profile: string; jobId: string }>;
  reads: number;
  paid: number;
  count: number;
}

/**
 * Four clients send a mix of paid requests until `stopAfter` have been answered, then the mock
 * is sent `signal` while the others are still in flight; resolves once it has exited.
 */
async function burst(url: string, stop: () => void, stopAfter: number, run: string): Promise<Answered> {
  const answered: Answered = { jobs: [], reads: 0, paid: 0, count: 0 };
  let next = 0;
  let stopped = false;
  const one = async (i: number) => {
    if (i % 9 === 8) {
      await call(url, 'POST', '/_mock/clock/advance', { ms: PHASE_MS });
    } else if (i % 5 === 4 && answered.jobs.length) {
      const earlier = answered.jobs[i % answered.jobs.length]!.profile;
      const read = await call(url, 'GET', `/api/v1/articles/${earlier}`);
      if (read.status === 200) answered.reads += read.body.credits_charged;
    } else if (i % 7 === 6) {
      const checkout = await call(url, 'POST', '/api/v1/credits/checkout', { credits: 50 });
      expect(checkout.status).toBe(200);
      const paid = await call(url, 'POST', `/_mock/checkout/${checkout.body.session_id}/complete`);
      if (paid.body.credited) answered.paid += 50;
    } else {
      const profile = `p-${run}-${i}`;
      const key = `k-${run}-${i}`;
      const started = await call(url, 'POST', '/api/v1/articles', { profile_id: profile }, key);
      expect(started.status).toBe(202);
      answered.jobs.push({ key, profile, jobId: started.body.job_id });
    }
    answered.count++;
  };
  const client = async () => {
    while (!stopped) {
      try {
        await one(next++);
      } catch (error) {
        if (stopped) return; // refused or cut off by the stop: not answered
        throw error;
      }
      if (answered.count >= stopAfter && !stopped) {
        stopped = true;
        stop();
      }
    }
  };
  await Promise.all([client(), client(), client(), client()]);
  return answered;
}

async function checkSurvived(url: string, answered: Answered) {
  const ledger = (await call(url, 'GET', '/_mock/ledger')).body;
  const acme = ledger.accounts.find((account: any) => account.accountId === 'acme');
  // The ledger adds up, and the balance the API answers is its balance.
  expect(acme.balance).toBe(acme.opening + acme.purchased + acme.refunded - acme.reserved - acme.readCharges);
  expect((await call(url, 'GET', '/api/v1/credits')).body.credits).toBe(acme.balance);
  expect(acme.opening).toBe(OPENING);
  // Each answered effect is there (requests cut off by the stop may be there too).
  expect(acme.reserved).toBeGreaterThanOrEqual(100 * answered.jobs.length);
  expect(acme.readCharges).toBeGreaterThanOrEqual(answered.reads);
  expect(acme.purchased).toBeGreaterThanOrEqual(answered.paid);
  const before = acme.balance;
  for (const job of answered.jobs) {
    const status = await call(url, 'GET', `/api/v1/jobs/${job.jobId}`);
    expect(status.status).toBe(200);
    // Its key kept: the same request again answers the same job, charging nothing.
    const again = await call(url, 'POST', '/api/v1/articles', { profile_id: job.profile }, job.key);
    expect(again.body.job_id).toBe(job.jobId);
  }
  expect((await call(url, 'GET', '/api/v1/credits')).body.credits).toBe(before);
  // And the jobs go on: moved past their phases, every one has ended and the ledger still adds up.
  await call(url, 'POST', '/_mock/clock/advance', { ms: 3 * PHASE_MS });
  const after = (await call(url, 'GET', '/_mock/ledger')).body.accounts[0];
  expect(after.reserved).toBe(after.jobCharges + after.refunded);
}

describe('profile-articles-mock --data', () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    // Each run starts two mock processes; four runs take a few seconds, more on a loaded machine.
    it(`keeps every answered request's effect across a ${signal} at a random point of a paid burst`, {
      timeout: 120_000,
    }, async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 60 }), async (stopAfter) => {
          const where = folder();
          const first = start(where);
          const url = await first.url;
          const answered = await burst(url, () => first.child.kill(signal), stopAfter, String(run++));
          await first.exited;
          const second = start(where);
          await checkSurvived(await second.url, answered);
          second.child.kill('SIGTERM');
          expect(await second.exited).toBe(0);
        }),
        { numRuns: 4 },
      );
    });
  }

  it('cuts a last line a crash left short, and garbage after it, and starts', async () => {
    const where = folder();
    const first = start(where);
    const url = await first.url;
    const jobs = [];
    for (const i of [1, 2, 3]) {
      jobs.push((await call(url, 'POST', '/api/v1/articles', { profile_id: `p${i}` }, `k${i}`)).body.job_id);
    }
    first.child.kill('SIGKILL');
    await first.exited;
    const journal = join(where.dir, 'journal.log');
    // What the folder holds names accounts by id: never the key.
    expect(readFileSync(journal, 'utf8')).not.toContain(KEY);
    const size = readFileSync(journal).length;
    truncateSync(journal, size - 20); // the third generate's line, cut short
    appendFileSync(journal, Buffer.from([0x00, 0xff, 0x7b, 0x22, 0x0a, 0x41, 0x20, 0x5b, 0x7d, 0x0a, 0xc3]));
    const second = start(where);
    const again = await second.url;
    expect(second.stderr()).toMatch(/cut \d+ bytes after the journal's last whole record/);
    // The first two are there, keys and all; the third was never written whole, so none of it is.
    for (const [i, jobId] of jobs.slice(0, 2).entries()) {
      const replay = await call(again, 'POST', '/api/v1/articles', { profile_id: `p${i + 1}` }, `k${i + 1}`);
      expect(replay.body.job_id).toBe(jobId);
    }
    expect((await call(again, 'GET', `/api/v1/jobs/${jobs[2]}`)).status).toBe(404);
    const ledger = (await call(again, 'GET', '/_mock/ledger')).body.accounts[0];
    expect(ledger.reserved).toBe(200);
    expect(ledger.balance).toBe(OPENING - 200);
    // It goes on writing after the cut: a restart still finds the next request.
    const next = await call(again, 'POST', '/api/v1/articles', { profile_id: 'p4' }, 'k4');
    second.child.kill('SIGKILL');
    await second.exited;
    const third = start(where);
    const replay = await call(await third.url, 'POST', '/api/v1/articles', { profile_id: 'p4' }, 'k4');
    expect(replay.body.job_id).toBe(next.body.job_id);
  });

  it('refuses a snapshot it did not write, saying what to do, rather than guessing', async () => {
    const where = folder();
    mkdirSync(where.dir, { recursive: true });
    writeFileSync(join(where.dir, 'snapshot.json'), '{"accounts": []}');
    const mock = start(where);
    expect(await mock.exited).toBe(1);
    expect(mock.stderr()).toContain('snapshot.json in');
    expect(mock.stderr()).toContain('move it away to start afresh');
  });

  it('refuses a second mock on the same folder, saying which process holds it', async () => {
    const where = folder();
    const first = start(where);
    await first.url;
    const second = start(where);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`Another mock (process ${first.child.pid}) is using the data folder`);
    expect(second.stdout()).not.toContain('listening');
    // The first still serves.
    expect((await call(await first.url, 'GET', '/api/v1/credits')).status).toBe(200);
  });

  it('restarted, a job goes on where it was and a key expires 24 h after it was used, as without a stop', async () => {
    const where = folder();
    const first = start(where);
    const started = await call(await first.url, 'POST', '/api/v1/articles', { profile_id: 'ada' }, 'key-1');
    first.child.kill('SIGKILL');
    await first.exited;
    const second = start(where);
    const url = await second.url;
    // Still queued (its phases are 10 minutes of the mock's clock), then done once they pass.
    expect((await call(url, 'GET', `/api/v1/jobs/${started.body.job_id}`)).body.status).toBe('queued');
    await call(url, 'POST', '/_mock/clock/advance', { ms: 2 * PHASE_MS });
    const done = await call(url, 'GET', `/api/v1/jobs/${started.body.job_id}`);
    expect(done.body.status).toBe('succeeded');
    // Within 24 h the key answers its job; after, it is free again: the same request reads the article.
    const replay = await call(url, 'POST', '/api/v1/articles', { profile_id: 'ada' }, 'key-1');
    expect(replay.body.job_id).toBe(started.body.job_id);
    await call(url, 'POST', '/_mock/clock/advance', { ms: 24 * 60 * 60_000 });
    const later = await call(url, 'POST', '/api/v1/articles', { profile_id: 'ada' }, 'key-1');
    expect(later.body.article.article_id).toBe(done.body.article.article_id);
    expect(later.body.credits_charged).toBe(1);
  });

  it('keeps the clock: an advance made before a restart is still there after it', async () => {
    const where = folder();
    const first = start(where);
    const day = 24 * 60 * 60_000;
    const moved = await call(await first.url, 'POST', '/_mock/clock/advance', { ms: 3 * day });
    first.child.kill('SIGKILL');
    await first.exited;
    const second = start(where);
    const now = await call(await second.url, 'POST', '/_mock/clock/advance', { ms: 0 });
    expect(Date.parse(now.body.now)).toBeGreaterThanOrEqual(Date.parse(moved.body.now));
    expect(Date.parse(now.body.now) - Date.now()).toBeGreaterThan(2 * day);
  });
});
