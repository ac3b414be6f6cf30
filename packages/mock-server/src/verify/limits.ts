// The bounds verify keeps whatever the server under test does: a server may send an endless
// or trickled body, keep a job queued for ever, advertise a queued timeout of a billion
// minutes or ask for a wait of years. None of these numbers comes from the server.
import { defaultOptions, MAX_RESPONSE_BYTES } from '@profile-articles/sdk/internal';
import { PricingSchema } from '@profile-articles/sdk/schemas';

export interface VerifyLimits {
  /** One request, from sending it to the last byte of its body: past it the run stops. */
  probeTimeoutMs: number;
  /** The largest body read; a longer one is not read and fails its check. */
  maxBodyBytes: number;
  /** The most verify waits between polls of one job before failing its poll check. */
  pollLimitMs: number;
  /** The longest Retry-After waited; a longer one is reported at once and never waited. */
  maxRetryAfterMs: number;
  /**
   * The most balance calls --check-rate-limit sends to fill the window. It sends
   * requests_per_minute + 5, which the server advertises: past this cap the 429 is not provoked.
   */
  maxRateLimitCalls: number;
  /** The whole run: past it no request is sent and no wait begun, and the report is printed. */
  runBudgetMs: number;
}

/** Running: the contract gives no bound; a quarter of an hour past the queued timeout. */
const RUNNING_ALLOWANCE_MINUTES = 15;

export const DEFAULT_LIMITS: VerifyLimits = {
  // The SDK's own bounds, so that verify gives up where a client of the SDK would.
  probeTimeoutMs: defaultOptions.timeoutMs,
  maxBodyBytes: MAX_RESPONSE_BYTES,
  maxRetryAfterMs: defaultOptions.maxRetryDelayMs,
  // The interface's default queued timeout, never the advertised one: a server may say 1e9.
  // Ten a second for a minute: well above the interface's default of 60 a minute, and little
  // enough that a server advertising 9007199254740991 (and never refusing) gets no flood.
  maxRateLimitCalls: 600,
  // Each request is bounded, but a server that answers 429 Retry-After: 60 to everything makes
  // each one three minutes: a run of hours. A conforming server is done in well under a minute
  // at --spend 0. A job slower than the budget leaves its check inconclusive (cut short), which
  // is no failure: the 45-minute poll limit is then reached only by a run given a longer budget.
  runBudgetMs: 15 * 60_000,
  pollLimitMs: (PricingSchema.parse({}).queued_timeout_minutes + RUNNING_ALLOWANCE_MINUTES) * 60_000,
};

/** Verify polls no more often than this, so that a poll interval of 0 still reaches the poll limit. */
export const MIN_POLL_INTERVAL_MS = 1000;

/**
 * Starts a probe's time limit: `expire` is called when it runs out; the returned function
 * cancels it. setTimeout by default; tests expire it on an event instead of the clock.
 */
export type Timer = (ms: number, expire: () => void) => () => void;

export const realTimer: Timer = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

/** `10 MiB`, `64 KiB` or `300 bytes`: a size as the report says it. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** `15 minutes` or `90 s`. */
export const durationText = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} minutes` : secondsText(ms));

/** `60 s` or `1.5 s`. */
export const secondsText = (ms: number) => `${ms / 1000} s`;
