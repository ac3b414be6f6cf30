// Pacing against the in-process mock, which enforces "at most N requests in any 60 s" on its
// own clock. Fake timers drive both clocks, so minutes of pacing take milliseconds.
import { createMockService, type MockService } from '@profile-articles/mock-server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ClientOptions, ProfileArticles, RateLimitError, TimeoutError } from '../src/index.js';

const KEY = 'pacing-key';

function mock(requestsPerMinute: number, credits = 10_000): MockService {
  return createMockService({
    accounts: [{ id: 'acme', apiKeys: [KEY], credits, pricing: { requests_per_minute: requestsPerMinute } }],
    jobs: { queuedMs: 2_000, runningMs: 3_000 },
  });
}

function client(service: MockService, options: ClientOptions = {}): ProfileArticles {
  return new ProfileArticles({
    apiKey: KEY,
    baseUrl: 'http://mock.test',
    fetch: (input, init) => service.handle(new Request(input as RequestInfo, init)),
    ...options,
  });
}

const refused = (service: MockService) => service.journal().filter((entry) => entry.status === 429).length;

/** Runs fake time forward until every promise has settled. */
async function settle<T>(promises: Array<Promise<T>>): Promise<Array<PromiseSettledResult<T>>> {
  const all = Promise.allSettled(promises);
  let done = false;
  void all.then(() => {
    done = true;
  });
  for (let i = 0; i < 10_000 && !done; i++) await vi.advanceTimersByTimeAsync(250);
  return all;
}

// A fixed start: the mock counts requests in one-second buckets, so runs replay exactly.
beforeEach(() =>
  vi.useFakeTimers({
    now: Date.parse('2026-01-01T00:00:00.000Z'),
    toFake: ['setTimeout', 'clearTimeout', 'Date'],
  }),
);
afterEach(() => vi.useRealTimers());

describe('pacing', () => {
  it('without it, a burst over the limit is answered 429 (the problem pacing solves)', async () => {
    const service = mock(10);
    const sdk = client(service, { maxRetries: 0 });
    const results = await settle(Array.from({ length: 15 }, () => sdk.credits.balance()));
    const failures = results.filter((r) => r.status === 'rejected');
    expect(failures.length).toBe(5);
    expect((failures[0] as PromiseRejectedResult).reason).toBeInstanceOf(RateLimitError);
  });

  it("'auto': a burst of 35 concurrent calls at 10 a minute all succeed and none is refused", async () => {
    const service = mock(10);
    const sdk = client(service, { pacing: 'auto', maxRetries: 0 });
    const started = Date.now();
    const results = await settle(Array.from({ length: 35 }, () => sdk.credits.balance()));
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(refused(service)).toBe(0);
    // 36 requests (the limit read included) at 10 a minute need three full windows.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 60_000);
  });

  it('a number: polls share the rate, and jobs end without a 429', async () => {
    const service = mock(6);
    const sdk = client(service, { pacing: 6, maxRetries: 0, pollIntervalMs: 500 });
    const profiles = ['ada', 'bob', 'cyd', 'dee'];
    const results = await settle(profiles.map((p) => sdk.articles.generateAndWait(p)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(refused(service)).toBe(0);
  });

  it('the pacer’s wait counts toward deadlineMs, not toward an attempt’s timeoutMs', async () => {
    const service = mock(1);
    const slow = client(service, { pacing: 1, timeoutMs: 1_000 });
    const [first, second] = await settle([slow.credits.balance(), slow.credits.balance()]);
    expect(first?.status).toBe('fulfilled');
    expect(second?.status).toBe('fulfilled'); // waited ~60 s for its slot; the 1 s attempt bound did not fire

    const bounded = client(mock(1), { pacing: 1, deadlineMs: 5_000 });
    const started = Date.now();
    const [, late] = await settle([bounded.credits.balance(), bounded.credits.balance()]);
    expect((late as PromiseRejectedResult).reason).toBeInstanceOf(TimeoutError);
    // At the 5 s deadline, not after the ~60 s wait for a slot: a bound halfway between.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('a per-call deadlineMs bounds that call’s pacer wait; other calls keep the client’s (none)', async () => {
    const sdk = client(mock(1), { pacing: 1 });
    const started = Date.now();
    const [, late, patient] = await settle([
      sdk.credits.balance(),
      sdk.credits.balance({ deadlineMs: 1_500 }),
      sdk.credits.balance(),
    ]);
    expect((late as PromiseRejectedResult).reason).toBeInstanceOf(TimeoutError);
    expect(((late as PromiseRejectedResult).reason as Error).message).toContain('deadline of 1500 ms');
    expect(patient?.status).toBe('fulfilled');
    expect(Date.now() - started).toBeGreaterThanOrEqual(60_000);
    await expect(sdk.credits.balance({ deadlineMs: -1 })).rejects.toThrow(/deadlineMs/);
  });

  it('an abort ends the wait at once', async () => {
    const sdk = client(mock(1), { pacing: 1 });
    await sdk.credits.balance();
    const controller = new AbortController();
    const waiting = sdk.credits.balance({ signal: controller.signal });
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it("'auto' reads the limit again after a 429 from another client of the account", async () => {
    const service = mock(5);
    const other = client(service, { maxRetries: 0 });
    const sdk = client(service, { pacing: 'auto', maxRetryDelayMs: 120_000 });
    await settle([sdk.credits.balance()]);
    // Another process spends the rest of the window, so the paced client meets a 429 once.
    await settle(Array.from({ length: 3 }, () => other.credits.balance()));
    const oneByOne = async () => {
      for (let i = 0; i < 4; i++) await sdk.credits.balance();
    };
    const [result] = await settle([oneByOne()]);
    expect(result?.status).toBe('fulfilled');
    expect(refused(service)).toBe(1);
    const balanceReads = service.journal().filter((e) => e.path === '/api/v1/credits' && e.status === 200);
    // 2 limit reads + 5 calls of the paced client + 3 of the other.
    expect(balanceReads.length).toBe(10);
  });

  it('rejects a bad pacing value at construction', () => {
    for (const pacing of [0, -1, Number.NaN, 'fast']) {
      expect(() => client(mock(1), { pacing: pacing as never })).toThrow(/pacing/);
    }
  });
});
