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

  it('keeps accounts apart and memory bounded under long use', () => {
    const limiter = createRateLimiter();
    for (let t = 0; t < 100_000; t++) limiter.take('busy', 1_000_000, t * 10);
    expect(limiter.take('quiet', 1, 0)).toEqual({ allowed: true });
    // 60 one-second buckets per account, however many requests a minute holds.
    expect(limiter.sizes()).toEqual({ accounts: 2, buckets: 120 });
  });

  it('counts to the second: a request leaves the window at the start of its second plus 60 s', () => {
    const limiter = createRateLimiter();
    expect(limiter.take('a', 1, 900)).toEqual({ allowed: true });
    expect(limiter.take('a', 1, 59_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('a', 1, 60_000)).toEqual({ allowed: true });
  });
});
