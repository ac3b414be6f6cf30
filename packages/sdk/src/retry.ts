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

/** Exponential backoff: 0.5 s doubling to 8 s, with jitter that never goes below half. */
export function backoffDelayMs(retryNumber: number, random: () => number = Math.random): number {
  const nominal = Math.min(500 * 2 ** (retryNumber - 1), 8000);
  return nominal * (0.5 + random() * 0.5);
}

/**
 * The wait the server asked for, in ms: `retry-after-ms`, else `Retry-After` as seconds or an HTTP date.
 * Undefined when it said nothing usable.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
