// Chaos: SDK calls from 10 concurrent workers against the mock over HTTP, with 30% of the
// API requests faulted (500 before any effect, 500 after it, connection reset, latency,
// spurious 429). Every call must end in a result or a typed SDK error, and afterwards the
// money must add up exactly, from the mock's own job store and ledger.
import { type FaultsConfig, startMockServer } from '@profile-articles/mock-server';
import { isJob, ProfileArticles, ProfileArticlesError } from '@profile-articles/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../src/rules/seeded-random.js';

const WORKERS = 10;
const CALLS_PER_WORKER = Number(process.env.CHAOS_CALLS ?? 30);
const OPENING = 1_000_000;
const PROFILES = Array.from({ length: 16 }, (_, i) => (i % 5 === 4 ? `fail-p${i}` : `p${i}`));

const FAULTS: FaultsConfig = {
  seed: 2026,
  rules: [
    { kind: 'fail', probability: 0.08 },
    { kind: 'lost', probability: 0.08 },
    { kind: 'reset', probability: 0.06 },
    { kind: 'latency', probability: 0.04, latencyMs: 15 },
    { kind: 'rate-limit', probability: 0.04, retryAfterSeconds: 0 },
  ],
};

describe('chaos: 10 SDK workers, 30% of requests faulted', () => {
  let server: Awaited<ReturnType<typeof startMockServer>>;
  beforeAll(async () => {
    server = await startMockServer({
      port: 0,
      config: {
        accounts: [
          {
            id: 'chaos',
            apiKeys: ['chaos-key'],
            credits: OPENING,
            pricing: { requests_per_minute: 1_000_000 },
          },
        ],
        // Real time: the SDK polls the jobs while they run.
        jobs: { queuedMs: 20, runningMs: 40 },
        faults: FAULTS,
      },
    });
  });
  afterAll(() => server.close());

  it('ends every call in a result or a typed error, and the ledger is exact', async () => {
    const client = new ProfileArticles({
      apiKey: 'chaos-key',
      baseUrl: server.url,
      maxRetries: 6,
      timeoutMs: 5_000,
      pollIntervalMs: 10,
    });
    const outcomes = new Map<string, number>();
    const count = (name: string) => outcomes.set(name, (outcomes.get(name) ?? 0) + 1);
    const untyped: unknown[] = [];
    const jobIds = new Set<string>();

    const worker = async (index: number) => {
      const random = seededRandom(1000 + index);
      const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
      const sdk = client;
      for (let call = 0; call < CALLS_PER_WORKER; call++) {
        const op = pick([
          'generate',
          'generate',
          'update',
          'read',
          'waitFor',
          'balance',
          'checkout',
        ] as const);
        const profile = pick(PROFILES);
        try {
          switch (op) {
            case 'generate': {
              const answer = await sdk.articles.generate(profile);
              if (isJob(answer)) jobIds.add(answer.job_id);
              break;
            }
            case 'update':
              jobIds.add((await sdk.articles.update(profile)).job_id);
              break;
            case 'read':
              await sdk.articles.read(profile);
              break;
            case 'waitFor': {
              const known = [...jobIds];
              if (known.length) await sdk.jobs.waitFor(pick(known), { intervalMs: 10 });
              else await sdk.credits.balance();
              break;
            }
            case 'balance':
              await sdk.credits.balance();
              break;
            case 'checkout': {
              const session = await sdk.credits.checkout(100 + Math.floor(random() * 100));
              if (random() < 0.7) server.service.completeCheckout(session.session_id);
              break;
            }
          }
          count(`${op}: ok`);
        } catch (error) {
          if (error instanceof ProfileArticlesError) count(`${op}: ${error.name}`);
          else untyped.push(error);
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i)));

    // Let every job end: past the queued timeout, so none can stay active.
    server.service.advanceClock(31 * 60_000);
    const state = server.service.state();
    const jobs = [...state.jobs.all()];
    const ledger = server.service.ledger();
    const account = ledger.accounts.find((a) => a.accountId === 'chaos')!;
    const { faults, requests } = server.service.stats();

    // Every term from the mock: the job store for job charges, the ledger for the rest.
    const succeededCharges = jobs
      .filter((r) => r.job.status === 'succeeded')
      .reduce((sum, r) => sum + r.job.credits_charged, 0);
    const readCharges = ledger.entries
      .filter((e) => e.kind === 'charge' && (e.reason === 'read' || e.reason === 'generate-read'))
      .reduce((sum, e) => sum + e.credits, 0);
    const purchases = ledger.entries
      .filter((e) => e.kind === 'purchase')
      .reduce((sum, e) => sum + e.credits, 0);
    expect(ledger.total).toBeLessThanOrEqual(ledger.capacity); // every movement is in view
    const balance = server.service.balance('chaos');

    const keys = new Map<string, number>();
    for (const record of jobs) keys.set(record.idempotencyKey, (keys.get(record.idempotencyKey) ?? 0) + 1);
    const reusedKeys = [...keys].filter(([, n]) => n > 1);

    const figures = {
      calls: WORKERS * CALLS_PER_WORKER,
      requests,
      faults,
      jobs: jobs.length,
      succeeded: jobs.filter((r) => r.job.status === 'succeeded').length,
      refunded: jobs.filter((r) => r.job.status === 'failed' || r.job.status === 'cancelled').length,
      ledger: { start: OPENING, purchases, succeededCharges, readCharges, balance },
      outcomes: Object.fromEntries([...outcomes].sort()),
    };
    console.log(`chaos figures: ${JSON.stringify(figures, null, 2)}`);

    expect(untyped).toEqual([]);
    expect([...outcomes.values()].reduce((a, b) => a + b, 0)).toBe(WORKERS * CALLS_PER_WORKER);
    expect(OPENING + purchases - succeededCharges - readCharges).toBe(balance);
    expect(account).toMatchObject({
      purchased: purchases,
      jobCharges: succeededCharges,
      readCharges,
      held: 0,
    });
    expect(reusedKeys).toEqual([]);
    expect(jobs.filter((r) => r.job.status === 'queued' || r.job.status === 'running')).toEqual([]);
    expect(state.jobs.activeCount).toBe(0);
    // The run met every fault, or it proved little.
    for (const kind of ['fail', 'lost', 'reset', 'latency', 'rate-limit'] as const)
      expect(faults[kind]).toBeGreaterThan(0);
    expect(figures.succeeded).toBeGreaterThan(0);
  }, 60_000);
});
