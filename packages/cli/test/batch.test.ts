// batch over HTTP against the mock: pacing, the ledger, the budget and crash safety.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProfileArticles } from '@profile-articles/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BatchMock, envFor, ledgerFor, spawnBatch, startBatchMock, workDir } from './batch-helpers.js';

const KEYS = {
  bulk: 'pa_test_BULKKEY_0123456789',
  seed: 'pa_test_SEEDKEY_0123456789',
  slow: 'pa_test_SLOWKEY_0123456789',
  small: 'pa_test_SMALLKEY_012345678',
};
const START = 100_000;
let mock: BatchMock;

beforeAll(async () => {
  mock = await startBatchMock({
    accounts: [
      {
        id: 'bulk',
        apiKeys: [KEYS.bulk],
        credits: START,
        pricing: { requests_per_minute: 1200, queued_timeout_minutes: 1 },
      },
      { id: 'seed', apiKeys: [KEYS.seed], credits: START, pricing: { requests_per_minute: 10_000 } },
      { id: 'slow', apiKeys: [KEYS.slow], credits: START, pricing: { requests_per_minute: 60 } },
      { id: 'small', apiKeys: [KEYS.small], credits: 1000 },
    ],
    jobs: { queuedMs: 0, runningMs: 150 },
  });
});
afterAll(() => mock.server.close());

describe('batch generate', () => {
  it('200 profiles (fail-, stuck-, duplicates, existing) at concurrency 8: no 429, the ledger equals the summary', async () => {
    const existing = Array.from({ length: 15 }, (_, i) => `old-${i}`);
    const seed = new ProfileArticles({ apiKey: KEYS.seed, baseUrl: mock.server.url, pollIntervalMs: 50 });
    await Promise.all(existing.map((id) => seed.articles.generateAndWait(id)));
    const fresh = Array.from({ length: 170 }, (_, i) => `person-${i}`);
    const failing = Array.from({ length: 10 }, (_, i) => `fail-${i}`);
    const stuck = Array.from({ length: 5 }, (_, i) => `stuck-${i}`);
    const ids = [...fresh, ...failing, ...stuck, ...existing];
    expect(ids.length).toBe(200);
    const dir = workDir([...ids, ...fresh.slice(0, 10), '# a comment', '']);
    const refusedBefore = await mock.refused('bulk');

    const batch = spawnBatch(
      ['generate', '--from', 'list.txt', '--concurrency', '8', '--json', '--yes'],
      envFor(mock, KEYS.bulk, dir, '0.1'),
      dir,
    );
    // The stuck ones wait for the queued timeout: once everything else has ended, move the mock's clock past it.
    const ended = () => batch.events().filter((e) => e.event === 'finished' || e.event === 'failed').length;
    const watcher = setInterval(() => {
      if (ended() >= 195) {
        clearInterval(watcher);
        mock.service.advanceClock(61_000);
      }
    }, 100);
    const code = await batch.code;
    clearInterval(watcher);

    const events = batch.events();
    const summary = events.at(-1)!;
    expect(summary.event).toBe('summary');
    expect(code).toBe(3);
    expect(summary.succeeded).toBe(185);
    expect(summary.duplicates).toBe(10);
    expect(summary.failed.map((f: { status: string }) => f.status).sort()).toEqual([
      ...Array(5).fill('cancelled'),
      ...Array(10).fill('failed'),
    ]);
    expect((await mock.refused('bulk')) - refusedBefore).toBe(0);

    const ledger = await ledgerFor(mock, 'bulk');
    for (const id of fresh) expect([id, ledger.kept.get(id), ledger.net.get(id)]).toEqual([id, 1, 100]);
    for (const id of [...failing, ...stuck])
      expect([id, ledger.kept.get(id), ledger.net.get(id)]).toEqual([id, 0, 0]);
    for (const id of existing) expect(ledger.net.get(id)).toBe(1);
    expect(summary.credits_charged).toBe(ledger.spent);
    expect(ledger.spent).toBe(170 * 100 + 15);
    expect(mock.service.balance('bulk')).toBe(START - ledger.spent);
  }, 60_000);

  it('20 profiles at 60 requests a minute: no 429, one charge each', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `slow-${i}`);
    const dir = workDir(ids);
    const refusedBefore = await mock.refused('slow');
    const batch = spawnBatch(
      ['generate', '--from', 'list.txt', '--concurrency', '8', '--json', '--yes'],
      envFor(mock, KEYS.slow, dir, '0.2'),
      dir,
    );
    expect(await batch.code).toBe(0);
    const summary = batch.events().at(-1)!;
    expect((await mock.refused('slow')) - refusedBefore).toBe(0);
    const ledger = await ledgerFor(mock, 'slow');
    for (const id of ids) expect(ledger.kept.get(id)).toBe(1);
    expect(summary.credits_charged).toBe(ledger.spent);
    expect(summary.succeeded).toBe(20);
  }, 30_000);

  it('--max-credits 250 --partial over five new profiles generates two and exits 5; without --partial none', async () => {
    const ids = Array.from({ length: 5 }, (_, i) => `budget-${i}`);
    const dir = workDir(ids);
    const refused = spawnBatch(
      ['generate', '--from', 'list.txt', '--max-credits', '250', '--yes'],
      envFor(mock, KEYS.small, dir),
      dir,
    );
    expect(await refused.code).toBe(5);
    expect(refused.stderr()).toMatch(/worst case \(500 credits\) is more than --max-credits 250/);
    expect((await ledgerFor(mock, 'small')).spent).toBe(0);

    const partial = spawnBatch(
      ['generate', '--from', 'list.txt', '--max-credits', '250', '--partial', '--json', '--yes'],
      envFor(mock, KEYS.small, dir),
      dir,
    );
    expect(await partial.code).toBe(5);
    const summary = partial.events().at(-1)!;
    expect(summary).toMatchObject({ succeeded: 2, left: 3, stopped: 'budget', credits_charged: 200 });
    expect((await ledgerFor(mock, 'small')).spent).toBe(200);
    expect(summary.resume).toContain('--max-credits 250');
  });

  it('--out writes <name>.json and <name>.md; a second run skips what finished', async () => {
    const dir = workDir(['Out/Side', 'out-plain']);
    const args = ['generate', '--from', 'list.txt', '--out', 'articles', '--yes'];
    const first = spawnBatch(args, envFor(mock, KEYS.seed, dir), dir);
    expect(await first.code).toBe(0);
    const article = JSON.parse(readFileSync(join(dir, 'articles', 'out-plain.json'), 'utf8'));
    expect(article.article_id).toEqual(expect.any(String));
    expect(readFileSync(join(dir, 'articles', 'out-plain.md'), 'utf8')).toMatch(/^# /);
    expect(readFileSync(join(dir, 'list.generate.state.jsonl'), 'utf8')).toContain('"profile_id":"Out/Side"');
    const again = spawnBatch([...args, '--json'], envFor(mock, KEYS.seed, dir), dir);
    expect(await again.code).toBe(0);
    expect(again.events().filter((e) => e.event === 'skipped')).toHaveLength(2);
  });
});
