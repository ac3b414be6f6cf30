// spendLimit over random sequences of calls, concurrent or not, and of what the server does
// (articles that exist or not, jobs that fail, 402s, 409s from another account's job and from a
// reused key, replays, answers lost after the work was done, resets, spurious 429s), against
// the real mock over HTTP. Whatever happens, the mock's ledger never shows this client's
// account charged past spendLimit at any moment; and once every uncertain call has been asked
// again with its key and every job seen to its end, client.spent is what the ledger says, or
// above it by no more than the worst cases of the calls the server still refuses then.
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { ledgerCharges } from '@profile-articles/test-utils/ledger';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { ApiError, isJob, type Job, JobFailedError, ProfileArticles, SpendLimitError } from '../src/node.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const KEY = 'key-spender';
const RIVAL = 'key-rival-1';

// Odd Unicode among them: a profile id is any string of 1 to 200 characters.
const PROFILES = ['ada', 'grace', 'fail-x', 'notfound-z', 'stuck-y', 'é\u0301😀', '\u202eevil'];
const profile = fc.constantFrom(...PROFILES);
// A few keys of the caller's, so that keys are reused: replays, and 409s for another profile.
const key = fc.option(fc.constantFrom('order-1', 'order-2', 'order-3'), { nil: undefined });

const op = fc.oneof(
  fc.record({ kind: fc.constant('read' as const), profile }),
  fc.record({ kind: fc.constant('generate' as const), profile, key }),
  fc.record({ kind: fc.constant('update' as const), profile, key }),
  fc.record({ kind: fc.constant('generateAndWait' as const), profile }),
  fc.record({ kind: fc.constant('updateAndWait' as const), profile }),
  // Another account starts a job for the profile: ours meets 409 while it runs.
  fc.record({ kind: fc.constant('rival' as const), profile }),
  fc.record({ kind: fc.constant('finishJobs' as const) }),
  fc.record({ kind: fc.constant('balance' as const) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

// What the server does besides: each fault on a share of a route's requests. A 'fail' does
// nothing and answers 500; on a read the client cannot tell it from a 'lost' read that was
// charged, and counts the worst case, so reads meet only faults that leave no doubt.
const share = fc.constantFrom(0, 0.25, 0.5);
const faults = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  rules: fc.tuple(
    fc.record({
      route: fc.constantFrom('POST /api/v1/articles', 'POST /api/v1/articles/{profile_id}/update'),
      kind: fc.constantFrom('lost', 'fail', 'reset', 'rate-limit'),
      probability: share,
      retryAfterSeconds: fc.constant(0),
    }),
    fc.record({
      route: fc.constant('GET /api/v1/articles/{profile_id}'),
      kind: fc.constantFrom('lost', 'reset', 'rate-limit'),
      probability: share,
      retryAfterSeconds: fc.constant(0),
    }),
    fc.record({
      route: fc.constant('GET /api/v1/jobs/{job_id}'),
      kind: fc.constantFrom('lost', 'reset', 'rate-limit'),
      probability: share,
      retryAfterSeconds: fc.constant(0),
    }),
  ),
});

const scenario = fc.record({
  limit: fc.oneof(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 120, max: 600 })),
  // Now and then too few, for 402s; mostly enough that the limit is what stops the client.
  credits: fc.oneof(
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 200 }) },
    { weight: 3, arbitrary: fc.constant(10_000) },
  ),
  pricing: fc.record({
    read_credits: fc.integer({ min: 1, max: 3 }),
    generation_credits: fc.integer({ min: 40, max: 150 }),
  }),
  faults,
  // Each step's calls run at once.
  steps: fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 10 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

async function setFaults(mock: MockServer, value: object): Promise<void> {
  const answer = await fetch(`${mock.url}/_mock/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });
  expect(answer.status).toBe(200);
}

// Without retries, each lost answer leaves its call uncertain; with them, the call's attempts
// share one key (and wait 0.25 s to 0.5 s between them, so fewer runs).
it.each([
  { maxRetries: 0, runs: RUNS },
  { maxRetries: 1, runs: Math.ceil(RUNS / 2) },
])(
  'the ledger never passes spendLimit, and client.spent is the ledger’s net (maxRetries $maxRetries)',
  async ({ maxRetries, runs }) => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        // A mock of its own: this account's balance and terms.
        const mock = await startMockServer({
          port: 0,
          config: {
            accounts: [
              {
                id: 'spender',
                apiKeys: [KEY],
                credits: s.credits,
                pricing: { ...s.pricing, requests_per_minute: 100_000 },
              },
              { id: 'rival', apiKeys: [RIVAL], credits: 100_000, pricing: { requests_per_minute: 100_000 } },
            ],
            jobs: { queuedMs: 1000, runningMs: 1000 },
          },
        });
        try {
          await check(mock, s, maxRetries);
        } finally {
          await mock.close();
        }
      }),
      { numRuns: runs },
    );
  },
);

async function check(mock: MockServer, s: Scenario, maxRetries: number): Promise<void> {
  /** Ends every job, stuck ones by their queued timeout. */
  const finishJobs = () => mock.service.advanceClock(31 * 60_000);
  const client = new ProfileArticles({
    apiKey: KEY,
    baseUrl: mock.url,
    spendLimit: s.limit,
    maxRetries,
    pollIntervalMs: 1,
    // A 409 for another job: that job ends, so that a waiting generateAndWait goes on.
    hooks: { onResponse: ({ status }) => status === 409 && finishJobs() },
  });
  const rival = new ProfileArticles({ apiKey: RIVAL, baseUrl: mock.url, maxRetries: 0 });
  const jobs = new Set<string>();
  /** Calls whose outcome the client could not know: asked again with their key at the end. */
  const uncertain: Array<{ kind: 'generate' | 'update'; profile: string; idempotencyKey: string }> = [];
  const seen = (value: unknown) => {
    if (typeof value === 'object' && value !== null && isJob(value as Job)) jobs.add((value as Job).job_id);
  };

  // The account's terms differ from the interface's defaults: read them first, as the docs say.
  await client.credits.balance();
  await setFaults(mock, s.faults);
  const run = async (o: Op): Promise<unknown> => {
    // A wait hears its job first: if a poll then fails, the job is still known, to be seen to its end.
    const onPoll = (job: Job) => {
      jobs.add(job.job_id);
      finishJobs();
    };
    switch (o.kind) {
      case 'read':
        return client.articles.read(o.profile);
      case 'generate':
        return client.articles.generate(o.profile, o.key ? { idempotencyKey: o.key } : {});
      case 'update':
        return client.articles.update(o.profile, o.key ? { idempotencyKey: o.key } : {});
      case 'generateAndWait':
        return client.articles.generateAndWait(o.profile, { onPoll });
      case 'updateAndWait':
        return client.articles.updateAndWait(o.profile, { onPoll });
      case 'rival':
        return rival.articles.generate(o.profile).then(
          () => undefined,
          () => undefined,
        );
      case 'finishJobs':
        return finishJobs();
      case 'balance':
        return client.credits.balance();
    }
  };
  for (const step of s.steps) {
    const results = await Promise.allSettled(step.map(run));
    for (const [i, result] of results.entries()) {
      if (result.status === 'fulfilled') {
        seen(result.value);
        continue;
      }
      const error = result.reason;
      if (error instanceof JobFailedError) seen(error.job);
      // An error with a key, but not a 4xx at the first attempt (which did nothing): the call
      // may have been charged. A 4xx after a failed attempt proves nothing of that attempt, which
      // may still act on a real server: the client keeps its worst case, so ask it again too.
      if (error instanceof SpendLimitError || error.idempotencyKey === undefined) continue;
      if (error instanceof ApiError && error.status < 500 && (error.attempts ?? 1) <= 1) continue;
      const o = step[i]!;
      if (o.kind === 'generate' || o.kind === 'generateAndWait') {
        uncertain.push({ kind: 'generate', profile: o.profile, idempotencyKey: error.idempotencyKey });
      } else if (o.kind === 'update' || o.kind === 'updateAndWait') {
        uncertain.push({ kind: 'update', profile: o.profile, idempotencyKey: error.idempotencyKey });
      }
    }
    // At no moment was the account charged past the limit.
    expect((await ledgerCharges(mock.url, 'spender')).peak).toBeLessThanOrEqual(s.limit);
  }

  // Settle what the client could not know: no more faults, every job ended, each uncertain
  // call asked again with its key (one at a time, so that none meets another's active job),
  // and every job seen to its end.
  await setFaults(mock, { rules: [] });
  // Calls asked again that the server still refuses (a 402, 404 or 409): no answer says what
  // their lost attempts did, so the client may keep counting their worst case.
  let unsettled = 0;
  for (const o of uncertain) {
    finishJobs();
    const call =
      o.kind === 'update'
        ? client.articles.update(o.profile, { idempotencyKey: o.idempotencyKey })
        : client.articles.generate(o.profile, { idempotencyKey: o.idempotencyKey });
    seen(
      await call.catch(() => {
        unsettled++;
        return undefined;
      }),
    );
  }
  finishJobs();
  for (const id of jobs) await client.jobs.waitFor(id);

  const ledger = await ledgerCharges(mock.url, 'spender');
  expect(ledger.peak).toBeLessThanOrEqual(s.limit);
  expect(client.spent).toBeLessThanOrEqual(s.limit);
  // A read whose answer was lost or cut may have found the article (charged) or not (free): the
  // client counts it, the worst case. Reads have no key to ask again with, so those stay counted.
  const doubtfulReads = mock.service
    .journal()
    .filter(
      (e) =>
        e.method === 'GET' && e.path.startsWith('/api/v1/articles/') && (e.status >= 500 || e.status === 0),
    ).length;
  // A key's worst case: the account's price for a generation, never below the interface's 100.
  const keyWorstCase = Math.max(s.pricing.generation_credits, 100);
  expect(client.spent - ledger.net).toBeGreaterThanOrEqual(0);
  expect(client.spent - ledger.net).toBeLessThanOrEqual(
    doubtfulReads * s.pricing.read_credits + unsettled * keyWorstCase,
  );
  if (doubtfulReads === 0 && unsettled === 0) expect(client.spent).toBe(ledger.net);
}
