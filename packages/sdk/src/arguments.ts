// Checks of what a caller passes beyond the contract table's schemas (see endpoint-call.ts),
// made before anything is sent. Each throws InvalidArgumentError; every call is async, so a
// mistake reaches the caller as a rejected promise.
import { MAX_TIMER_MS } from './abort.js';
import { InvalidArgumentError } from './errors.js';
import type { RequestOptions } from './options.js';

/** What an HTTP header carries unchanged through every fetch: printable ASCII. */
const HEADER_SAFE = /^[\x20-\x7e]*$/;

/**
 * The caller's Idempotency-Key, once the contract table's schema has passed it (1 to 200
 * characters, well-formed): it travels in a header, so printable ASCII without edge spaces
 * (fetch would trim them, and the server would store another key than the error reports).
 */
export function checkHeaderSafeKey(key: string): string {
  if (!HEADER_SAFE.test(key) || key.trim() !== key) {
    throw new InvalidArgumentError(
      'idempotencyKey must be printable ASCII without leading or trailing spaces (it is sent as an HTTP header)',
    );
  }
  return key;
}

/** A number from 0 to MAX_TIMER_MS, or the fallback when not given. */
export function nonNegative(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) {
    throw new InvalidArgumentError(
      `${name} must be a number from 0 to ${MAX_TIMER_MS} (about 24.8 days), got ${String(value)}`,
    );
  }
  return value;
}

/** Per-call options a caller may get wrong. */
export function checkCallOptions(opts: RequestOptions | undefined): void {
  if (opts === undefined) return;
  nonNegative('timeoutMs', opts.timeoutMs, 0);
  nonNegative('maxRetries', opts.maxRetries, 0);
  nonNegative('deadlineMs', opts.deadlineMs, 0);
}

/**
 * The shortest API key taken. Every spelling of the key is scrubbed from what a server sends
 * back (redact.ts): a shorter key could be an ordinary word, and scrubbing it would rewrite
 * unrelated text (a one-character key turned "keep-alive" into "[redacted]eep-alive").
 */
export const MIN_API_KEY_LENGTH = 8;

/**
 * The key goes into `Authorization: Bearer …`: printable ASCII without spaces, and at least
 * MIN_API_KEY_LENGTH characters. Never echoed.
 */
export function checkApiKey(apiKey: string): string {
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new InvalidArgumentError(
      'The API key holds a character an HTTP header cannot carry (a space, line break or non-ASCII): check for stray whitespace.',
    );
  }
  if (apiKey.length < MIN_API_KEY_LENGTH) {
    throw new InvalidArgumentError(
      `The API key is too short: a key has at least ${MIN_API_KEY_LENGTH} characters. Check that it was copied whole.`,
    );
  }
  return apiKey;
}
