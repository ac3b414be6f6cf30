// batch over HTTP against the mock: pacing, the ledger, the budget and crash safety.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProfileArticles } from '@profile-articles/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BatchMock, envFor, ledgerFor, spawnBatch, startBatchMock, workDir } from './batch-helpers.js';

const KEYS = {
  bulk: 'pa_test_BULKKEY_0123456789',
  seed: 'pa_test_SEEDKEY_0123456789',
  slow: 'pa_test_SLOWKEY_0123456789',
  small: 'pa_test_SMALLKEY_012345678',
  reader: 'pa_test_READERKEY_01234567',
  tiny: 'pa_test_TINYKEY_0123456789',
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
      // Its own account: 'small' must be untouched, whichever test runs first (--sequence.shuffle).
      { id: 'reader', apiKeys: [KEYS.reader], credits: 1000 },
      { id: 'tiny', apiKeys: [KEYS.tiny], credits: 250 },
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

  // 32 profiles need at least 66 requests (two balance reads, a generate and a poll each): more
  // than the 60 a minute allows, so without pacing the mock answers 429; paced, the run waits
  // about a minute for the window instead.
  it('32 profiles at 60 requests a minute: more requests than the limit, yet no 429, one charge each', async () => {
    const ids = Array.from({ length: 32 }, (_, i) => `slow-${i}`);
    const dir = workDir(ids);
    const refusedBefore = await mock.refused('slow');
    const started = Date.now();
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
    expect(summary.succeeded).toBe(32);
    // Held for the window: unpaced, 32 jobs of 150 ms at concurrency 8 take a few seconds.
    expect(Date.now() - started).toBeGreaterThan(30_000);
  }, 120_000);

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
    expect(refused.stderr()).toMatch(/raise --max-credits/);
    expect(refused.stderr()).not.toContain('profile-articles buy'); // the balance (1000) is not what is short
    expect(existsSync(join(dir, 'list.generate.state.jsonl'))).toBe(false); // refused: no state file
    expect((await ledgerFor(mock, 'small')).spent).toBe(0);

    const partial = spawnBatch(
      ['generate', '--from', 'list.txt', '--max-credits', '250', '--partial', '--json', '--yes'],
      envFor(mock, KEYS.small, dir),
      dir,
    );
    expect(await partial.code).toBe(5);
    expect(partial.events()[0]).toEqual({
      event: 'plan',
      operation: 'generate',
      profiles: 5,
      new: 5,
      resume: 0,
      skip: 0,
      duplicates: 0,
      worst_case: 500,
      cost: 100,
      balance: 1000,
      max_credits: 250,
      spent_earlier: 0,
    });
    const summary = partial.events().at(-1)!;
    expect(summary).toMatchObject({ succeeded: 2, left: 3, stopped: 'budget', credits_charged: 200 });
    expect((await ledgerFor(mock, 'small')).spent).toBe(200);
    expect(summary.resume).toContain('--max-credits 250');

    // On a pipe, the summary (stdout) says how to resume; the error line (stderr) does not repeat it.
    const plain = spawnBatch(
      ['generate', '--from', 'list.txt', '--max-credits', '250', '--partial', '--yes'],
      envFor(mock, KEYS.small, dir),
      dir,
    );
    expect(await plain.code).toBe(5);
    expect(`${plain.stdout()}${plain.stderr()}`.match(/Resume with:/g)).toHaveLength(1);
    expect(plain.stdout()).toMatch(/^generate: 0 succeeded, 0 failed, 2 skipped, 3 left; 0 credits charged/m);
  });

  it('a balance below the worst case: exit 5 before starting, or with --partial two of five and stopped by the balance', async () => {
    const dir = workDir(Array.from({ length: 5 }, (_, i) => `poor-${i}`));
    const refused = spawnBatch(
      ['generate', '--from', 'list.txt', '--yes'],
      envFor(mock, KEYS.tiny, dir),
      dir,
    );
    expect(await refused.code).toBe(5);
    expect(refused.stderr()).toMatch(/more than the balance \(250\)/);
    const partial = spawnBatch(
      ['generate', '--from', 'list.txt', '--partial', '--json', '--yes'],
      envFor(mock, KEYS.tiny, dir),
      dir,
    );
    expect(await partial.code).toBe(5);
    expect(partial.events().at(-1)).toMatchObject({
      succeeded: 2,
      left: 3,
      stopped: 'balance',
      credits_charged: 200,
    });
    expect(mock.service.balance('tiny')).toBe(50);
  });

  it('a 409 for an active job is retried with the same key; one for a key used elsewhere is recorded at once', async () => {
    // Another client holds an active job for stuck-busy (a stuck- job stays queued until the queued timeout).
    const other = new ProfileArticles({ apiKey: KEYS.seed, baseUrl: mock.server.url });
    await other.articles.generate('stuck-busy');
    await other.articles.generate('taken-a', { idempotencyKey: 'shared-key' });
    const dir = workDir(['stuck-busy', 'taken-b']);
    // taken-b was started by an earlier run with a key that is now another profile's: replayed, it is a 409.
    writeFileSync(
      join(dir, 'list.generate.state.jsonl'),
      `${JSON.stringify({ type: 'batch', operation: 'generate', at: 'x' })}\n${JSON.stringify({ type: 'send', profile_id: 'taken-b', idempotency_key: 'shared-key', at: 'x' })}\n`,
    );
    const batch = spawnBatch(
      ['generate', '--from', 'list.txt', '--json', '--yes'],
      envFor(mock, KEYS.seed, dir),
      dir,
    );
    // Once the first 409 for stuck-busy is in, the other job times out: the retry then starts a job (stuck too, then cancelled).
    let moves = 0;
    const watcher = setInterval(() => {
      const conflicts = mock.service
        .journal()
        .filter((e) => e.status === 409 && e.accountId === 'seed').length;
      const state = readFileSync(join(dir, 'list.generate.state.jsonl'), 'utf8');
      if (
        (moves === 0 && conflicts >= 2) ||
        (moves === 1 && state.includes('"type":"job","profile_id":"stuck-busy"'))
      ) {
        moves++;
        mock.service.advanceClock(31 * 60_000);
      }
    }, 50);
    const code = await batch.code;
    clearInterval(watcher);
    expect(code).toBe(3);
    const ends = Object.fromEntries(
      batch
        .events()
        .filter((e) => e.event === 'failed')
        .map((e) => [e.profile_id, e.status]),
    );
    expect(ends).toEqual({ 'taken-b': 'conflict', 'stuck-busy': 'cancelled' });
    const keys = readFileSync(join(dir, 'list.generate.state.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"send","profile_id":"stuck-busy"'));
    expect(keys).toHaveLength(1);
  });

  it('batch read and batch update charge their own prices', async () => {
    const seed = new ProfileArticles({ apiKey: KEYS.seed, baseUrl: mock.server.url, pollIntervalMs: 50 });
    await Promise.all(['made-0', 'made-1'].map((id) => seed.articles.generateAndWait(id)));
    const dir = workDir(['made-0', 'made-1', 'never-made']);
    const read = spawnBatch(
      ['read', '--from', 'list.txt', '--json', '--yes'],
      envFor(mock, KEYS.reader, dir),
      dir,
    );
    expect(await read.code).toBe(3);
    expect(read.events().at(-1)).toMatchObject({ succeeded: 2, credits_charged: 2 });
    const update = spawnBatch(
      ['update', '--from', 'list.txt', '--json', '--yes'],
      envFor(mock, KEYS.reader, dir),
      dir,
    );
    expect(await update.code).toBe(3);
    const summary = update.events().at(-1)!;
    expect(summary).toMatchObject({ succeeded: 2, credits_charged: 200 });
    expect(summary.failed).toEqual([
      expect.objectContaining({ profile_id: 'never-made', status: 'not_found' }),
    ]);
  });

  it('--out writes <name>.json and <name>.md; a second run skips what finished', async () => {
    const dir = workDir(['Out/Side', 'out-plain']);
    const args = ['generate', '--from', 'list.txt', '--out', 'articles', '--yes'];
    const first = spawnBatch(args, envFor(mock, KEYS.seed, dir), dir);
    expect(await first.code).toBe(0);
    const article = JSON.parse(readFileSync(join(dir, 'articles', 'out-plain.json'), 'utf8'));
    expect(article.article_id).toEqual(expect.any(String));
    const markdown = readFileSync(join(dir, 'articles', 'out-plain.md'), 'utf8');
    expect(markdown).toMatch(/^# /);
    expect(markdown.match(/^# /gm)).toHaveLength(1); // the title once, not again from the content
    expect(readFileSync(join(dir, 'list.generate.state.jsonl'), 'utf8')).toContain('"profile_id":"Out/Side"');
    const again = spawnBatch([...args, '--json'], envFor(mock, KEYS.seed, dir), dir);
    expect(await again.code).toBe(0);
    expect(again.events().filter((e) => e.event === 'skipped')).toHaveLength(2);
  });
});
