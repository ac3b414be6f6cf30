// --max-credits where an answer is lost: what a batch cannot learn by asking again counts at its
// worst case, so the ledger (the mock's own, over HTTP) never passes the limit, in one run or over
// reruns. A read has no key, so its lost answer cannot be asked again; a key is forgotten by the
// server after 24 hours.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { type BatchMock, envFor, ledgerFor, spawnBatch, startBatchMock, workDir } from './batch-helpers.js';

const KEY = 'pa_test_BATCHDOUBT_0123456789';
let mock: BatchMock | undefined;
afterEach(async () => {
  await mock?.server.close();
  mock = undefined;
});

async function seeded(profiles: string[]): Promise<{ mock: BatchMock; before: number }> {
  mock = await startBatchMock({
    accounts: [{ id: 'main', apiKeys: [KEY], credits: 10_000, pricing: { requests_per_minute: 100_000 } }],
    jobs: { queuedMs: 0, runningMs: 0 },
  });
  const { ProfileArticles } = await import('@profile-articles/sdk');
  const seed = new ProfileArticles({ apiKey: KEY, baseUrl: mock.server.url, pollIntervalMs: 20 });
  for (const id of profiles) await seed.articles.generateAndWait(id);
  return { mock, before: (await ledgerFor(mock, 'main')).spent };
}

it('batch read: a lost answer is not read again in the run, and counts as charged; the ledger stays within --max-credits', async () => {
  const { mock, before } = await seeded(['r1', 'r2', 'r3']);
  await mock.control('PUT', 'faults', {
    seed: 1,
    rules: [{ kind: 'lost', route: 'GET /api/v1/articles/{profile_id}', probability: 1 }],
  });
  const dir = workDir(['r1', 'r2', 'r3']);
  const args = ['read', '--from', 'list.txt', '--max-credits', '3', '--yes', '--json', '--concurrency', '1'];
  const first = spawnBatch(args, envFor(mock, KEY, dir), dir);
  expect(await first.code).toBe(3);
  expect((await ledgerFor(mock, 'main')).spent - before).toBe(3);
  const failed = first.events().filter((e) => e.event === 'failed');
  expect(failed.map((e) => e.status)).toEqual(['error', 'error', 'error']);
  // Recorded as charged: a rerun that reads them again has no room left under the same limit.
  await mock.control('DELETE', 'faults');
  const again = spawnBatch([...args, '--retry-failed'], envFor(mock, KEY, dir), dir);
  expect(await again.code).toBe(5);
  expect((await ledgerFor(mock, 'main')).spent - before).toBe(3);
}, 120_000);

it('batch update resumed more than a day after its answer was lost: counted at its worst case, not sent again', async () => {
  const { mock, before } = await seeded(['day-later']);
  await mock.control('PUT', 'faults', {
    seed: 1,
    rules: [{ kind: 'lost', route: 'POST /api/v1/articles/{profile_id}/update', probability: 1 }],
  });
  const dir = workDir(['day-later']);
  const args = ['update', '--from', 'list.txt', '--max-credits', '100', '--yes', '--json'];
  expect(await spawnBatch(args, envFor(mock, KEY, dir), dir).code).toBe(3);
  expect((await ledgerFor(mock, 'main')).spent - before).toBe(100);
  await mock.control('DELETE', 'faults');
  // A day passes, on both sides: the server forgets the key, and the send is a day old.
  mock.service.advanceClock(25 * 3600_000);
  const statePath = join(dir, 'list.update.state.jsonl');
  const dayAgo = new Date(Date.now() - 25 * 3600_000).toISOString();
  writeFileSync(
    statePath,
    readFileSync(statePath, 'utf8').replace(/("type":"send".*?"at":")[^"]+/, `$1${dayAgo}`),
  );
  const second = spawnBatch(args, envFor(mock, KEY, dir), dir);
  expect(await second.code).toBe(3);
  expect((await ledgerFor(mock, 'main')).spent - before).toBe(100);
  const failed = second.events().find((e) => e.event === 'failed');
  expect(failed).toMatchObject({ profile_id: 'day-later', status: 'error' });
  expect(String(failed?.error)).toMatch(/key has expired/);
}, 120_000);
