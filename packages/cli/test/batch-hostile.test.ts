// batch against a server that lies (a Drift on the real mock, over HTTP): about what it charged,
// in the text of a job's error, in the shape of an article. Whatever it says, --max-credits holds
// against what the server really took, the state file stays honest and plain, and the files
// --out promises are written before a profile counts as finished.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MockServer } from '@profile-articles/mock-server';
import { startDriftingMock } from '@profile-articles/test-utils/drifting-mock';
import { RAW_IN_JSON } from '@profile-articles/test-utils/hostile-strings';
import { ledgerCharges } from '@profile-articles/test-utils/ledger';
import { advertise, claimCharged, type Drift, drifts, isFor } from '@profile-articles/test-utils/lying-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { type BatchMock, envFor, spawnBatch, workDir } from './batch-helpers.js';

const KEY = 'pa_test_HOSTILEBATCH_012345';
const CONFIG = {
  accounts: [{ id: 'main', apiKeys: [KEY], credits: 100_000, pricing: { requests_per_minute: 100_000 } }],
  jobs: { queuedMs: 0, runningMs: 0 },
};

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A drifting mock that counts the reads it answered (each one the real mock charged). */
async function start(
  drift: Drift | undefined,
): Promise<{ env: (dir: string) => Record<string, string>; reads: () => number }> {
  let reads = 0;
  server = await startDriftingMock(async (request, response, service) => {
    if (isFor(request, 'readArticle') && response.status === 200) reads++;
    return drift ? drift(request, response, service) : response;
  }, CONFIG);
  const mock = { server } as BatchMock;
  return { env: (dir) => envFor(mock, KEY, dir), reads: () => reads };
}

/** The `end` records of a state file. */
const ends = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"end"'))
    .map((line) => JSON.parse(line));

/** Profiles the mock knows, so that reads find an article. */
async function seedArticles(ids: string[]): Promise<void> {
  const { ProfileArticles } = await import('@profile-articles/sdk');
  const seed = new ProfileArticles({ apiKey: KEY, baseUrl: server!.url, pollIntervalMs: 20 });
  for (const id of ids) await seed.articles.generateAndWait(id);
}

/** A batch read of the list within 5 credits, one at a time, as JSON events. */
const READ_FIVE = [
  'read',
  '--from',
  'list.txt',
  '--max-credits',
  '5',
  '--partial',
  '--yes',
  '--json',
  '--concurrency',
  '1',
];
describe('batch --max-credits counts what the server took, not what it claims', () => {
  const ids = Array.from({ length: 12 }, (_, i) => `reader-${i}`);

  it.each([
    ['a negative credits_charged', -1000],
    ['credits_charged 0 for a paid read', 0],
  ])('%s: at most 5 paid reads under --max-credits 5', async (_name, claim) => {
    const mock = await start(claimCharged('readArticle', claim));
    await seedArticles(ids);
    const dir = workDir(ids);
    const run = spawnBatch(READ_FIVE, mock.env(dir), dir);
    await run.code;
    expect(mock.reads()).toBeLessThanOrEqual(5);
    // Every charge the state file keeps is at least 0; the ones that ended count the read's price.
    for (const end of ends(join(dir, 'list.read.state.jsonl')))
      expect(end.credits_charged).toBeGreaterThanOrEqual(0);
  });

  it('a state file that recorded a negative charge (an older release) does not widen the budget', async () => {
    const mock = await start(undefined);
    await seedArticles(ids);
    const dir = workDir(ids);
    const at = new Date().toISOString();
    writeFileSync(
      join(dir, 'list.read.state.jsonl'),
      [
        { type: 'batch', operation: 'read', at },
        { type: 'send', profile_id: 'earlier', at },
        { type: 'end', profile_id: 'earlier', status: 'read', credits_charged: -50_000, at },
      ]
        .map((record) => `${JSON.stringify(record)}\n`)
        .join(''),
    );
    const run = spawnBatch(READ_FIVE, mock.env(dir), dir);
    await run.code;
    const plan = run.events().find((event) => event.event === 'plan');
    expect(plan?.spent_earlier).toBeGreaterThanOrEqual(0);
    // The earlier charge counts as 0, not as room for 50,000 more.
    expect(plan?.spent_earlier).toBe(0);
    expect(mock.reads()).toBeLessThanOrEqual(5);
  });
});

describe('batch --out: a profile is finished only once its files are written', () => {
  it('an --out that cannot be written leaves the profile failed (not finished), its charge counted', async () => {
    const mock = await start(undefined);
    await seedArticles(['out-1']);
    const blocked = workDir(['out-1']);
    writeFileSync(join(blocked, 'not-a-dir'), 'x');
    const failed = spawnBatch(
      ['read', '--from', 'list.txt', '--out', 'not-a-dir', '--yes', '--json'],
      mock.env(blocked),
      blocked,
    );
    expect(await failed.code).toBe(3);
    expect(failed.stderr()).not.toMatch(/bug/i);
    const [end] = ends(join(blocked, 'list.read.state.jsonl'));
    expect(end).toMatchObject({ status: 'error', credits_charged: 1 });
  });
});

describe('batch --max-credits prices a request at no less than the interface’s default', () => {
  it('a balance that advertises a generation at 1, each charged 100: 12 at once under --max-credits 250 send at most 2', async () => {
    let generates = 0;
    const mock = await start(
      drifts(advertise({ generation_credits: 1 }), (request, response) => {
        if (isFor(request, 'generateArticle')) generates++;
        return response;
      }),
    );
    const ids = Array.from({ length: 12 }, (_, i) => `lied-to-${i}`);
    const dir = workDir(ids);
    const run = spawnBatch(
      [
        'generate',
        '--from',
        'list.txt',
        '--max-credits',
        '250',
        '--partial',
        '--yes',
        '--json',
        '--concurrency',
        '12',
      ],
      mock.env(dir),
      dir,
    );
    await run.code;
    expect(generates).toBeLessThanOrEqual(2);
    expect((await ledgerCharges(server!.url, 'main')).peak).toBeLessThanOrEqual(250);
  });
});

describe('the state file holds no raw control from a server', () => {
  it("an error's detail with C1 and bidi controls is written as \\u escapes, the same value", async () => {
    const detail = 'gone\u009b2J\u202eevil\u0085';
    const mock = await start(async (request, response) =>
      isFor(request, 'readArticle') && response.status === 404
        ? new Response(JSON.stringify({ detail }), {
            status: 404,
            headers: { 'content-type': 'application/json' },
          })
        : response,
    );
    const dir = workDir(['nobody']);
    const run = spawnBatch(['read', '--from', 'list.txt', '--yes', '--json'], mock.env(dir), dir);
    await run.code;
    const text = readFileSync(join(dir, 'list.read.state.jsonl'), 'utf8');
    expect(text).not.toMatch(RAW_IN_JSON);
    expect(ends(join(dir, 'list.read.state.jsonl'))[0].error).toContain(detail);
  });
});
