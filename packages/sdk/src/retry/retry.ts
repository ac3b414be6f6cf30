// When to try again and how long to wait first.

/** Statuses worth another attempt: the server may answer differently next time. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/**
 * `idempotent`: every call but checkout (reads, polls, and generate/update, which carry an Idempotency-Key).
 * `unsafe`: checkout, which has no idempotency key: only 429 and connections that never reached the server.
 */
export type RetryPolicy = 'idempotent' | 'unsafe';

export function shouldRetryStatus(status: number, policy: RetryPolicy): boolean {
  return policy === 'unsafe' ? status === 429 : RETRYABLE_STATUSES.has(status);
}

const BACKOFF_BASE_MS = 500;

/** Exponential backoff: 0.5 s doubling to 8 s, with jitter that never goes below half. */
export function backoffDelayMs(retryNumber: number, random: () => number = Math.random): number {
  const nominal = Math.min(BACKOFF_BASE_MS * 2 ** (retryNumber - 1), 8000);
  return nominal * (0.5 + random() * 0.5);
}

/**
 * The one rule for a wait the server asked for (read by retry-after.ts), wherever the SDK would
 * take it: before a retry, before the next poll of a job, and as the pacer's hold on every request.
 * A wait above `maxRetryDelayMs` is refused there and then: the call fails at once with the
 * server's error (a RateLimitError for a 429) and nothing is held for it. `maxRetryDelayMs` is at
 * most MAX_TIMER_MS (options.ts refuses more), so a wait taken always fits a timer.
 */
export function refusesServerWait(askedMs: number, maxRetryDelayMs: number): boolean {
  return !(askedMs <= maxRetryDelayMs);
}

/**
 * The least wait taken for a server's asked wait, whatever it asked: the backoff's base delay.
 * A `Retry-After: 0` (or a date in the past) would otherwise make every retry, every poll after a
 * 429 and the pacer's hold instant: a hostile or broken server could keep a client in a tight loop.
 */
export const MIN_SERVER_WAIT_MS = BACKOFF_BASE_MS;

/** The wait taken for one the server asked for (and that refusesServerWait let through). */
export function serverWaitMs(askedMs: number): number {
  return Math.max(askedMs, MIN_SERVER_WAIT_MS);
}
