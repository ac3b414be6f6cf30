// A sliding one-minute window per account, counting every authenticated request that
// passed. A queue of timestamps per account: O(1) amortised per request.
const WINDOW_MS = 60_000;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(accountId: string, limitPerMinute: number, now: number): RateDecision;
}

interface Window {
  times: number[];
  head: number;
}

export function createRateLimiter(): RateLimiter {
  const windows = new Map<string, Window>();
  return {
    take(accountId, limitPerMinute, now) {
      let window = windows.get(accountId);
      if (!window) {
        window = { times: [], head: 0 };
        windows.set(accountId, window);
      }
      while (window.head < window.times.length && window.times[window.head]! <= now - WINDOW_MS)
        window.head++;
      if (window.head > 1024 && window.head * 2 > window.times.length) {
        window.times = window.times.slice(window.head);
        window.head = 0;
      }
      if (window.times.length - window.head >= limitPerMinute) {
        const oldest = window.times[window.head]!;
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)),
        };
      }
      window.times.push(now);
      return { allowed: true };
    },
  };
}
