import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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

/** V8's `gc()` without starting node with --expose-gc, so heap sizes can be compared. */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
