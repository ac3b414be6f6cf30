// The rate limit: per account, a sliding window of 60 one-second buckets. A request that
// passes is counted in the bucket of its second and stays counted until that second plus
// 60 s; a request is refused while the buckets in the window hold `requests_per_minute`.
// Memory is 60 counters per account whatever the rate (the window is exact to the second,
// not to the millisecond). Retry-After is when the oldest counted request leaves the
// window, rounded up to whole seconds, at least 1.
const WINDOW_SECONDS = 60;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(accountId: string, limitPerMinute: number, now: number): RateDecision;
  /** Accounts with a window, and the buckets they hold in all: 60 per account. */
  sizes(): { accounts: number; buckets: number };
}

interface Window {
  /** The second each bucket holds (bucket = second mod 60), and its count. */
  seconds: Float64Array;
  counts: Uint32Array;
  /** The second `total` was counted for, and the requests in the window then. */
  countedAt: number;
  total: number;
}

/** Requests counted in the window that ends with `second`, and the oldest second holding one. */
function count(window: Window, second: number): { total: number; oldest: number } {
  let total = 0;
  let oldest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < WINDOW_SECONDS; i++) {
    const held = window.seconds[i]!;
    if (held <= second - WINDOW_SECONDS || window.counts[i] === 0) continue;
    total += window.counts[i]!;
    if (held < oldest) oldest = held;
  }
  return { total, oldest };
}

export function createRateLimiter(): RateLimiter {
  const windows = new Map<string, Window>();
  return {
    take(accountId, limitPerMinute, now) {
      let window = windows.get(accountId);
      if (!window) {
        window = {
          seconds: new Float64Array(WINDOW_SECONDS).fill(Number.NEGATIVE_INFINITY),
          counts: new Uint32Array(WINDOW_SECONDS),
          countedAt: Number.NaN,
          total: 0,
        };
        windows.set(accountId, window);
      }
      const second = Math.floor(now / 1000);
      // The 60 buckets are summed once per second: within a second only this second's own
      // bucket grows, by the requests let through, so the sum is kept up as they pass.
      if (window.countedAt !== second) {
        window.total = count(window, second).total;
        window.countedAt = second;
      }
      if (window.total >= limitPerMinute) {
        const leavesAt = (count(window, second).oldest + WINDOW_SECONDS) * 1000;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((leavesAt - now) / 1000)) };
      }
      const bucket = ((second % WINDOW_SECONDS) + WINDOW_SECONDS) % WINDOW_SECONDS;
      if (window.seconds[bucket] !== second) {
        // A bucket still in the window holds a later second (the clock went back): its
        // requests were in the sum, and leave it with the bucket.
        if (window.seconds[bucket]! > second - WINDOW_SECONDS) window.total -= window.counts[bucket]!;
        window.seconds[bucket] = second;
        window.counts[bucket] = 0;
      }
      window.counts[bucket]!++;
      window.total++;
      return { allowed: true };
    },
    sizes: () => {
      // What the windows hold, counted: a change that let them grow would show here.
      let buckets = 0;
      for (const window of windows.values()) buckets += window.counts.length;
      return { accounts: windows.size, buckets };
    },
  };
}
