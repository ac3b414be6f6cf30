// The client's options as users pass them, per call, and the fully filled shape the rest of the SDK
// reads (options.ts fills it).

import type { Pacing } from '../retry/pacing.js';
import type { Log, Logger, LogLevel } from './log.js';

export interface AttemptInfo {
  method: string;
  url: string;
  attempt: number;
  idempotencyKey: string | undefined;
}

export interface ResponseInfo extends AttemptInfo {
  status: number;
  durationMs: number;
  /** The answer's `X-Request-Id`, when it has one safe to show (see ApiError.requestId). */
  requestId: string | undefined;
}

export interface RetryInfo extends AttemptInfo {
  /** How long the SDK waits before the next attempt. */
  delayMs: number;
  error: Error;
}

export interface Hooks {
  onRequest?: (info: AttemptInfo) => void;
  onResponse?: (info: ResponseInfo) => void;
  onRetry?: (info: RetryInfo) => void;
}

/** What a middleware gets and hands on: the attempt's URL and its fetch init (plain data). */
export interface MiddlewareRequest {
  url: string;
  init: RequestInit;
}

/**
 * Runs around every attempt (retries included), in the order given: the first is outermost. It
 * may add or change headers (not `authorization`, `idempotency-key` or `content-type`, nor what
 * the HTTP layer writes: `content-length`, `host`, `transfer-encoding`; a change to any is an
 * InvalidArgumentError for the call, and nothing is sent), time or observe the attempt, or
 * answer itself without calling `next`. The URL, method and body stay as the SDK made them.
 * What it throws (other than what `next` rejected with) is the call's error, not retried.
 */
export type Middleware = (
  request: MiddlewareRequest,
  next: (request: MiddlewareRequest) => Promise<Response>,
) => Promise<Response>;

export interface ClientOptions {
  /** Defaults to `PROFILE_ARTICLES_API_KEY`. */
  apiKey?: string;
  /** The API origin, such as `https://api.example.com`. Defaults to `PROFILE_ARTICLES_BASE_URL`. */
  baseUrl?: string;
  /** Retries after the first attempt. Default 2; 0 means exactly one attempt. */
  maxRetries?: number;
  /**
   * Bound on each HTTP attempt, in ms, from sending the request to the last byte of the answer's
   * body (a body that trickles in counts; a retry starts a new one). Default 60000. Not a bound
   * on waiting for a job: that is `timeoutMs` of `jobs.waitFor` or `waitTimeoutMs` of `*AndWait`.
   */
  timeoutMs?: number;
  /** Optional bound over all attempts and waits of one call. */
  deadlineMs?: number;
  /**
   * Between job polls, in ms, for every wait: `generateAndWait` and `updateAndWait` (the
   * `onConflict` wait too), `jobs.waitFor` and `credits.checkoutAndWait`. Default 10000, the
   * interface's advice; 1000 on a loopback origin (127.0.0.0/8, `[::1]`, `localhost`), such as the mock.
   */
  pollIntervalMs?: number;
  /** A `Retry-After` longer than this is not waited, by a retry, a job's poll or pacing: the call fails at once. Default 60000. */
  maxRetryDelayMs?: number;
  /**
   * Keep this client's requests (polls included) within the account's rate limit: `'auto'`
   * reads `requests_per_minute` from the balance endpoint (again after any 429), a number is
   * requests per minute, `false` (default) sends at once. Per client: share one client in a process.
   */
  pacing?: Pacing;
  /**
   * How requests are sent: called as `fetch(url, init)` for each attempt, with a plain init
   * (method, headers as an object, the JSON body, `redirect: 'manual'`, the signal and the call's
   * `fetchOptions`), as openai-node calls its fetch. Default on Node: node:http(s) with Node's
   * global agents (keep-alive), unless, when the client is made, `globalThis.fetch` has been
   * replaced since the SDK loaded (msw, a test's stub): the client then keeps that one.
   * Elsewhere `globalThis.fetch`. Pass `globalThis.fetch` to use Node's fetch (undici) and its
   * global dispatcher.
   */
  fetch?: typeof fetch;
  /**
   * Headers sent on every request, such as a tracing or team header. They cannot set
   * `authorization`, `idempotency-key` or `content-type`, which the SDK sets itself
   * (InvalidArgumentError); a call's `headers` win over them.
   */
  defaultHeaders?: Readonly<Record<string, string>>;
  /**
   * Fields given to `fetch` with every request, as its `RequestInit` (`cache`, `keepalive`,
   * undici's `dispatcher`…); a call's `fetchOptions` win over them. On Node, a request with
   * any is sent by Node's own fetch, which honours them, rather than node:http; a client with
   * `proxy`, which sends over node:http through it, refuses them (InvalidArgumentError).
   */
  fetchOptions?: FetchOptions;
  hooks?: Hooks;
  /**
   * Functions run around every attempt, in order (see {@link Middleware}): to add a header,
   * time an attempt, or answer from a cache. Unlike `hooks`, which only observe, they may
   * change the request. Default: none.
   */
  middleware?: readonly Middleware[];
  /**
   * Where log lines go: anything with `error`, `warn`, `info` and `debug` methods (a method it
   * lacks is a level it does not hear). Default `console`. Every line is redacted of the key.
   */
  logger?: Logger;
  /**
   * What is logged: `'warn'` (default) the SDK's warnings (plain `http://` to another machine),
   * `'info'` also a line per call, `'debug'` also a line per attempt; `'error'` and `'off'` less.
   * Default `PROFILE_ARTICLES_LOG`, else `'warn'`. A `logLevel` that is not a level is an
   * InvalidArgumentError; a `PROFILE_ARTICLES_LOG` that is not one is warned of, once, and `'warn'` used.
   */
  logLevel?: LogLevel;
  /**
   * An HTTP proxy for every request (`http://host:port`, credentials allowed): https goes
   * through it by CONNECT. Node only; elsewhere, configure the runtime's own fetch.
   */
  proxy?: string | URL;
  /**
   * A cap, in credits, on what this client's calls may spend: a paid call whose worst-case price
   * would take `client.spent` plus the worst cases of the calls under way past it is refused
   * with SpendLimitError before it is sent. A call's worst case is the highest of the last
   * balance's price, the most this client was charged for one like it, and the interface's
   * default (1 a read, 100 a generation): a discounted account is budgeted at the defaults.
   * It bounds this client only, not the account. Default: none.
   */
  spendLimit?: number;
  /**
   * OpenTelemetry: `false` makes no spans. Otherwise, once `@opentelemetry/api` (an optional
   * peer) is found, every call and wait is a CLIENT span named `profile_articles.<operation>`
   * (a wait's requests its children), carrying the request id, the Idempotency-Key, the
   * attempts and the credits charged, never the key or a body. Default true.
   */
  tracing?: boolean;
  /** The provider the spans come from, instead of the one registered globally with `@opentelemetry/api`. */
  tracerProvider?: TracerProvider;
  /** The key must stay server-side: constructing the client in a browser throws unless this is true. */
  dangerouslyAllowBrowser?: boolean;
}

/** OpenTelemetry's `TracerProvider` (from `@opentelemetry/api`), or anything shaped as one. */
export interface TracerProvider {
  getTracer(name: string, version?: string): object;
}

/** `RequestInit` without what the SDK sets itself: the method, body, headers, signal and redirect rule. */
export type FetchOptions = Omit<RequestInit, 'method' | 'body' | 'headers' | 'signal' | 'redirect'> & {
  /** Node's fetch (undici): the `Dispatcher` to send through, such as an `Agent` or a `MockAgent`. */
  dispatcher?: object;
};

/** Per call. */
export interface RequestOptions {
  /** Aborts the call, its retries and waits included; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Bound on each HTTP attempt of this call, in ms, body included; overrides the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Retries after the first attempt for this call; overrides the client's `maxRetries`. */
  maxRetries?: number;
  /**
   * Bound on this call, in ms: every attempt, the waits between them and the wait for a pacing
   * slot; overrides the client's `deadlineMs`. Of `*AndWait`, it bounds the generate or update
   * request; the wait for the job is bounded by `waitTimeoutMs`.
   */
  deadlineMs?: number;
  /** Headers for this call, over the client's `defaultHeaders`; the same ones are refused. */
  headers?: Readonly<Record<string, string>>;
  /** `RequestInit` fields for this call's fetch, over the client's `fetchOptions`. */
  fetchOptions?: FetchOptions;
}

/** Per call of `generate` and `update`, which are made safe to retry by an idempotency key. */
export interface IdempotentRequestOptions extends RequestOptions {
  /**
   * Sent as `Idempotency-Key` on every attempt of the call. Default: a fresh UUID per call.
   * Pass your own to retry a call later without a second charge; a new key starts new work.
   * 1 to 200 printable ASCII characters (it travels in a header), else InvalidArgumentError.
   */
  idempotencyKey?: string;
}

export interface NormalizedOptions {
  baseUrl: string;
  maxRetries: number;
  timeoutMs: number;
  deadlineMs: number | undefined;
  pollIntervalMs: number;
  maxRetryDelayMs: number;
  pacing: Pacing;
  fetch: typeof fetch;
  /** `defaultHeaders`, checked, names lower-cased. */
  headers: Readonly<Record<string, string>> | undefined;
  fetchOptions: object | undefined;
  hooks: Hooks;
  /** Undefined when there is none. */
  middleware: readonly Middleware[] | undefined;
  log: Log;
  userAgent: string;
  spendLimit: number | undefined;
  /** False: no spans; else the `tracerProvider`, or undefined for the global one. */
  tracing: TracerProvider | false | undefined;
}
