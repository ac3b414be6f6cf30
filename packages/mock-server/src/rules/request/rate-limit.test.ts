import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit.js';

describe('rate limiter', () => {
  it('allows the limit in a sliding minute, then says when the next request passes', () => {
    const limiter = createRateLimiter();
    expect(limiter.take('a', 2, 0)).toEqual({ allowed: true });
    expect(limiter.take('a', 2, 10_000)).toEqual({ allowed: true });
    expect(limiter.take('a', 2, 20_000)).toEqual({ allowed: false, retryAfterSeconds: 40 });
    // The first request leaves the window at 60 s; the refused one did not count.
    expect(limiter.take('a', 2, 60_000)).toEqual({ allowed: true });
    expect(limiter.take('a', 2, 60_500)).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });

  it('never asks to wait less than a second', () => {
    const limiter = createRateLimiter();
    limiter.take('a', 1, 0);
    expect(limiter.take('a', 1, 59_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('keeps accounts apart, with 60 counters per account whatever the rate', () => {
    const limiter = createRateLimiter();
    for (let t = 0; t < 100_000; t++) limiter.take('busy', 1_000_000, t * 10);
    expect(limiter.take('quiet', 1, 0)).toEqual({ allowed: true });
    // Counted from what the limiter holds, not from the number of accounts.
    expect(limiter.sizes()).toEqual({ accounts: 2, buckets: 120 });
  });

  it('holds no more memory after 200,000 requests in a minute than after 1,000', () => {
    // A per-request log would hold 200,000 timestamps here (1.6 MB); 60 counters hold 1 KB.
    const gc = exposeGc();
    const limiter = createRateLimiter();
    let t = 0;
    const burst = (n: number) => {
      for (const end = t + n; t < end; t++) limiter.take('busy', 1_000_000, 1_000 + (t % 59_000));
    };
    burst(1_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    burst(200_000);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown).toBeLessThan(256 * 1024);
    expect(limiter.take('busy', 201_000, 59_999)).toEqual({ allowed: false, retryAfterSeconds: 2 });
  });

  it('counts to the second: a request leaves the window at the start of its second plus 60 s', () => {
    const limiter = createRateLimiter();
    expect(limiter.take('a', 1, 900)).toEqual({ allowed: true });
    expect(limiter.take('a', 1, 59_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('a', 1, 60_000)).toEqual({ allowed: true });
  });
});

describe('rate limiter against a plain model', () => {
  it('decides as summing every bucket on every request would, whatever the clock does', () => {
    // The model: the same 60 buckets, summed on every request (the limiter sums them once per
    // second and keeps the sum). Clock steps go forward and, now and then, back.
    const step = fc.record({
      ms: fc.oneof(
        fc.integer({ min: 0, max: 1_500 }),
        fc.integer({ min: -70_000, max: 70_000 }),
        // Whole minutes back or forth land on the same bucket as an earlier second.
        fc.integer({ min: -2, max: 2 }).map((minutes) => minutes * 60_000),
      ),
      account: fc.constantFrom('a', 'b'),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(step, { maxLength: 80 }), (limit, steps) => {
        const limiter = createRateLimiter();
        const model = new Map<string, { seconds: number[]; counts: number[] }>();
        let now = 1_000_000;
        for (const { ms, account } of steps) {
          now += ms;
          let window = model.get(account);
          if (!window) {
            window = { seconds: Array(60).fill(Number.NEGATIVE_INFINITY), counts: Array(60).fill(0) };
            model.set(account, window);
          }
          const second = Math.floor(now / 1000);
          let total = 0;
          let oldest = Number.POSITIVE_INFINITY;
          for (let i = 0; i < 60; i++) {
            const held = window.seconds[i] as number;
            const counted = window.counts[i] as number;
            if (held <= second - 60 || counted === 0) continue;
            total += counted;
            oldest = Math.min(oldest, held);
          }
          let expected: ReturnType<typeof limiter.take>;
          if (total >= limit) {
            expected = {
              allowed: false,
              retryAfterSeconds: Math.max(1, Math.ceil(((oldest + 60) * 1000 - now) / 1000)),
            };
          } else {
            const bucket = ((second % 60) + 60) % 60;
            if (window.seconds[bucket] !== second) {
              window.seconds[bucket] = second;
              window.counts[bucket] = 0;
            }
            window.counts[bucket] = (window.counts[bucket] as number) + 1;
            expected = { allowed: true };
          }
          expect(limiter.take(account, limit, now)).toEqual(expected);
        }
      }),
      { numRuns: 500 },
    );
  });
});

/** V8's `gc()` without starting node with --expose-gc, so heap sizes can be compared. */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
