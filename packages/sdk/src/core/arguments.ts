// Checks of what a caller passes beyond the contract table's schemas (see endpoint-call.ts),
// made before anything is sent. Each throws InvalidArgumentError; every call is async, so a
// mistake reaches the caller as a rejected promise.

import { InvalidArgumentError } from '../errors/errors.js';
import { MAX_TIMER_MS } from '../retry/abort.js';
import type { NormalizedOptions, RequestOptions } from './option-types.js';
import type { CallExtras } from './transport-types.js';

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

/**
 * Headers the SDK sets itself, which `defaultHeaders` and `headers` cannot replace: the key, the
 * idempotency key, the body's type, and what the HTTP layer writes (a fetch drops those
 * silently, node:http would send them and break the request).
 */
export const OWN_HEADERS = [
  'authorization',
  'idempotency-key',
  'content-type',
  'content-length',
  'host',
  'transfer-encoding',
];
const HEADER_NAME = /^[!#$%&'*+.^_`|~\w-]+$/;
/** What node:http and fetch both send: no line break or other control, nothing past U+00FF. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * RequestInit fields the SDK sets itself, which `fetchOptions` cannot; also all that its node:http
 * transport honours (node-fetch.ts).
 */
export const OWN_FETCH_FIELDS: readonly string[] = ['method', 'body', 'headers', 'signal', 'redirect'];

const setBySdk = (option: string, name: string) =>
  new InvalidArgumentError(`${option} cannot set ${name}: the SDK sets it itself`);

/** An object option, or InvalidArgumentError. */
function checkObject(option: string, value: unknown): object {
  if (Object(value) !== value) throw new InvalidArgumentError(`${option} must be an object`);
  return value as object;
}

/** `headers` with lower-case names, or InvalidArgumentError naming the header (never its value). */
export function checkHeaders(option: string, headers: unknown): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(checkObject(option, headers))) {
    const lower = name.toLowerCase();
    if (OWN_HEADERS.includes(lower)) throw setBySdk(option, lower);
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) {
      throw new InvalidArgumentError(`${option}: ${JSON.stringify(name)} cannot be sent as an HTTP header`);
    }
    checked[lower] = value;
  }
  return checked;
}

export function checkFetchOptions(option: string, fields: unknown): object | undefined {
  if (fields === undefined) return undefined;
  for (const field of OWN_FETCH_FIELDS) {
    if ((checkObject(option, fields) as Record<string, unknown>)[field] !== undefined)
      throw setBySdk(option, field);
  }
  return fields as object;
}

/** The client's headers and fetch fields with the call's over them; undefined when neither has any. */
export function callExtras(client: NormalizedOptions, call: RequestOptions): CallExtras | undefined {
  if (!(client.headers || client.fetchOptions || call.headers || call.fetchOptions)) return undefined;
  const headers = checkHeaders('headers', call.headers);
  const fetchOptions = checkFetchOptions('fetchOptions', call.fetchOptions);
  return {
    headers: headers ? { ...client.headers, ...headers } : client.headers,
    fetchOptions: fetchOptions ? { ...client.fetchOptions, ...fetchOptions } : client.fetchOptions,
  };
}
