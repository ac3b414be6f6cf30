// A batch killed with SIGKILL at many points, then rerun with the same state file until it
// finishes: every profile is charged exactly once. One kill lands while the server has taken
// the request but the answer has not reached the CLI (the case an idempotency key exists for).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '@profile-articles/test-utils/seeded-random';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BatchMock,
  envFor,
  ledgerFor,
  type Spawned,
  spawnBatch,
  startBatchMock,
  workDir,
} from './batch-helpers.js';

const KEY = 'pa_test_CRASHKEY_012345678';
let mock: BatchMock;

beforeAll(async () => {
  mock = await startBatchMock({
    accounts: [{ id: 'crash', apiKeys: [KEY], credits: 100_000, pricing: { requests_per_minute: 5000 } }],
    jobs: { queuedMs: 100, runningMs: 300 },
  });
});
afterAll(() => mock.server.close());

const records = (dir: string) =>
  readFileSync(join(dir, 'list.generate.state.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('batch after kill -9', () => {
  it('resumes from the state file and charges each profile exactly once', async () => {
    const ids = [...Array.from({ length: 14 }, (_, i) => `crash-${i}`), 'fail-a', 'fail-b'];
    const dir = workDir(ids);
    const args = ['generate', '--from', 'list.txt', '--concurrency', '4', '--json', '--yes'];
    const env = envFor(mock, KEY, dir);
    // The account is shared with the other tests here, which may run first (--sequence.shuffle).
    const spentBefore = (await ledgerFor(mock, 'crash')).spent;

    // 1. Killed while the first generate answer is held back: the job exists, its id is not
    // recorded. The answer goes out only once the CLI is gone, so it is never heard.
    let first: Spawned | undefined;
    mock.holdAnswers(async () => {
      first?.kill();
      await first?.code;
    });
    first = spawnBatch(args, env, dir);
    expect(await first.code).toBe(null);
    mock.holdAnswers(undefined);
    const sentNotAnswered = records(dir).filter((r) => r.type === 'send');
    expect(sentNotAnswered.length).toBeGreaterThan(0);
    expect(records(dir).filter((r) => r.type === 'job')).toHaveLength(0);

    // 2. Killed at random points, rerun each time with the same state file.
    const random = seededRandom(13);
    let code: number | null = null;
    let last = first;
    for (let round = 0; round < 6 && code === null; round++) {
      last = spawnBatch(args, env, dir);
      const timer = setTimeout(last.kill, 250 + random() * 900);
      code = await last.code;
      clearTimeout(timer);
    }
    // 3. Then to the end, unless a run above got there before its kill (a fast machine).
    for (let round = 0; round < 4 && code === null; round++) {
      last = spawnBatch(args, env, dir);
      code = await last.code;
    }
    // 3 when the finishing run met the two fail- profiles; 0 when an earlier, killed run had
    // already recorded them as failed (a rerun skips them). The ledger below is what counts.
    expect([0, 3]).toContain(code);

    const ledger = await ledgerFor(mock, 'crash');
    for (const id of ids.slice(0, 14))
      expect([id, ledger.kept.get(id), ledger.net.get(id)]).toEqual([id, 1, 100]);
    for (const id of ['fail-a', 'fail-b']) expect(ledger.net.get(id)).toBe(0);
    const summary = last.events().at(-1)!;
    expect(summary.credits_charged_total).toBe(ledger.spent - spentBefore);
    expect(ledger.spent - spentBefore).toBe(1400);
  }, 60_000);

  it("through the mock's faults (lost answers, resets, spurious 429s): reruns charge each profile once", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `faulty-${i}`);
    const dir = workDir(ids);
    const args = ['generate', '--from', 'list.txt', '--concurrency', '4', '--json', '--yes'];
    await mock.control('PUT', 'faults', {
      seed: 5,
      rules: [
        { kind: 'lost', route: 'POST /api/v1/articles', probability: 0.3 },
        { kind: 'reset', route: 'POST /api/v1/articles', probability: 0.2 },
        { kind: 'reset', route: 'GET /api/v1/jobs/{job_id}', probability: 0.1 },
        { kind: 'rate-limit', route: 'GET /api/v1/jobs/{job_id}', probability: 0.05, retryAfterSeconds: 1 },
      ],
    });
    try {
      let run = spawnBatch(args, envFor(mock, KEY, dir), dir);
      let code = await run.code;
      for (let round = 0; round < 5 && code !== 0; round++) {
        run = spawnBatch(args, envFor(mock, KEY, dir), dir);
        code = await run.code;
      }
      expect(code).toBe(0);
      const faults = (await mock.control('GET', 'stats')).faults;
      expect(faults.lost + faults.reset).toBeGreaterThan(0);
      const ledger = await ledgerFor(mock, 'crash');
      for (const id of ids) expect([id, ledger.kept.get(id), ledger.net.get(id)]).toEqual([id, 1, 100]);
      const total = run.events().at(-1)!.credits_charged_total;
      expect(total).toBe(1200);
    } finally {
      await mock.control('DELETE', 'faults');
    }
  }, 60_000);

  it('Ctrl-C exits 130 with the command to resume; the rerun finishes without paying twice', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `sigint-${i}`);
    const dir = workDir(ids);
    const args = ['generate', '--from', 'list.txt', '--concurrency', '2', '--json', '--yes'];
    const run = spawnBatch(args, envFor(mock, KEY, dir), dir);
    await run.until('finished');
    run.signal('SIGINT');
    expect(await run.code).toBe(130);
    const summary = run.events().at(-1)!;
    expect(summary).toMatchObject({ event: 'summary', stopped: 'interrupted', exit_code: 130 });
    expect(summary.left).toBeGreaterThan(0);
    // Profiles in flight at Ctrl-C (their jobs go on): the summary counts them and their reservations.
    expect(summary.running).toBeGreaterThan(0);
    expect(summary.credits_reserved).toBe(summary.running * 100);
    expect(summary.resume).toContain('batch generate --from list.txt --state');

    const rerun = spawnBatch(args, envFor(mock, KEY, dir), dir);
    expect(await rerun.code).toBe(0);
    const ledger = await ledgerFor(mock, 'crash');
    for (const id of ids) expect([id, ledger.kept.get(id)]).toEqual([id, 1]);
    expect(rerun.events().at(-1)!.credits_charged_total).toBe(800);
  });

  it('Ctrl-C in a pipe: the summary says it was interrupted, and no `Error: Interrupted.` follows it', async () => {
    const ids = Array.from({ length: 6 }, (_, i) => `sigint-plain-${i}`);
    const dir = workDir(ids);
    const run = spawnBatch(
      ['generate', '--from', 'list.txt', '--concurrency', '1', '--yes'],
      envFor(mock, KEY, dir),
      dir,
    );
    await run.untilText('sigint-plain-0');
    run.signal('SIGINT');
    expect(await run.code).toBe(130);
    const said = run.stdout() + run.stderr();
    expect(said.match(/Interrupted/g)).toHaveLength(1);
    expect(said).toContain('Interrupted: started jobs go on on the server.');
    expect(run.stderr()).not.toContain('Error:');
  });

  it('a torn last line is cut off; a live run holds the lock', async () => {
    const dir = workDir(['torn-1']);
    const state = join(dir, 'list.generate.state.jsonl');
    writeFileSync(
      state,
      '{"type":"batch","operation":"generate","at":"2026-01-01T00:00:00Z"}\n{"type":"send","prof',
    );
    const run = spawnBatch(['generate', '--from', 'list.txt', '--yes'], envFor(mock, KEY, dir), dir);
    expect(await run.code).toBe(0);
    expect(records(dir).map((r) => r.type)).toEqual(['batch', 'send', 'job', 'end']);

    writeFileSync(`${state}.lock`, String(process.pid)); // this test process is alive
    const locked = spawnBatch(['generate', '--from', 'list.txt', '--yes'], envFor(mock, KEY, dir), dir);
    expect(await locked.code).toBe(1);
    expect(locked.stderr()).toMatch(/Another batch \(pid \d+\) is using the state file/);
  });
});
