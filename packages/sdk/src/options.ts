// Client options: what users pass, and the fully filled shape the rest of the SDK reads.
import { checkApiKey, checkFetchOptions, checkHeaders, nonNegative } from './arguments.js';
import { defaultOptions, isLoopbackHost } from './defaults.js';
import { InvalidArgumentError, ProfileArticlesError } from './errors.js';
import { createLog, type Log, type Logger, type LogLevel, plainHttpWarning } from './log.js';
import type { Pacing } from './pacing.js';
import { createRedactor } from './redact.js';
import { API_PREFIX } from './schemas/endpoints.js';
import { runtime, USER_AGENT_PREFIX, userAgent } from './user-agent.js';

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
  /** The key must stay server-side: constructing the client in a browser throws unless this is true. */
  dangerouslyAllowBrowser?: boolean;
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
  log: Log;
  userAgent: string;
  spendLimit: number | undefined;
}

function readEnv(name: string): string | undefined {
  // Only where a process exists: Deno, Bun and Node have one; edge runtimes may not.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name];
  return value === '' ? undefined : value;
}

function isBrowser(): boolean {
  const g = globalThis as {
    window?: unknown;
    document?: unknown;
    WorkerGlobalScope?: unknown;
    importScripts?: unknown;
  };
  if (typeof g.window !== 'undefined' && typeof g.document !== 'undefined') return true;
  // A browser's Web Worker (dedicated, shared or service) has neither window nor document, and the
  // key is as readable there. Its scope has WorkerGlobalScope and importScripts; Node, Deno, Bun
  // and edge runtimes (Cloudflare Workers included) define no importScripts.
  return typeof g.WorkerGlobalScope !== 'undefined' && typeof g.importScripts === 'function';
}

function normalizePacing(value: Pacing | undefined): Pacing {
  if (value === undefined || value === false || value === 'auto') return value ?? false;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 1) return Math.floor(value);
  throw new InvalidArgumentError(
    `pacing must be 'auto', false or a number of requests per minute (1 or more), got ${String(value)}`,
  );
}

function normalizeSpendLimit(value: number | undefined): number | undefined {
  if (value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0))
    return value;
  throw new InvalidArgumentError(`spendLimit must be a number of credits, 0 or more, got ${String(value)}`);
}

/**
 * `localhost:4010` parses as a URL of scheme `localhost:`, and `127.0.0.1:4010` not at all: a
 * host typed without its scheme gets the URL it most likely meant (http for this machine).
 */
function schemeMissing(raw: string): InvalidArgumentError | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) || !URL.canParse(`http://${raw}`)) return undefined;
  // A value holding `@` may hold a password: never echoed.
  if (raw.includes('@'))
    return new InvalidArgumentError('baseUrl has no scheme: begin it with http:// or https://');
  const { hostname } = new URL(`http://${raw}`);
  const local = hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
  return new InvalidArgumentError(
    `baseUrl has no scheme: "${raw}" (did you mean "${local ? 'http' : 'https'}://${raw}"?)`,
  );
}

/** `https://host/api/v1/` and `https://host` both mean the origin `https://host`. */
function normalizeBaseUrl(raw: string): string {
  const noScheme = schemeMissing(raw);
  if (noScheme) throw noScheme;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // A malformed URL may still hold a password: echo it only when it cannot.
    const shown = raw.includes('@') ? '' : `: "${raw}"`;
    throw new InvalidArgumentError(`baseUrl is not a valid URL${shown}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(`baseUrl must be http or https, got "${url.protocol}"`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidArgumentError('baseUrl must not contain credentials (user:password@)');
  }
  return url.href.replace(/\/+$/, '').replace(new RegExp(`${API_PREFIX}$`), '');
}

export function normalizeOptions(options: ClientOptions): {
  apiKey: string;
  keyFrom: string;
  options: NormalizedOptions;
} {
  if (isBrowser() && !options.dangerouslyAllowBrowser) {
    throw new ProfileArticlesError(
      'The API key must stay server-side: call the API from your backend (or pass dangerouslyAllowBrowser: true).',
    );
  }
  const apiKey = options.apiKey ?? readEnv('PROFILE_ARTICLES_API_KEY');
  if (!apiKey) {
    throw new InvalidArgumentError('Missing API key: pass { apiKey } or set PROFILE_ARTICLES_API_KEY.');
  }
  checkApiKey(apiKey);
  const baseUrl = options.baseUrl ?? readEnv('PROFILE_ARTICLES_BASE_URL');
  if (!baseUrl) {
    throw new InvalidArgumentError('Missing API origin: pass { baseUrl } or set PROFILE_ARTICLES_BASE_URL.');
  }
  if (options.proxy !== undefined) {
    // The Node entry takes `proxy` before it gets here.
    const name = runtime()?.name;
    throw new InvalidArgumentError(
      `proxy works on Node only: ${name === 'bun' || name === 'deno' ? `${name === 'bun' ? 'Bun' : 'Deno'}'s fetch goes through the proxy that HTTPS_PROXY or HTTP_PROXY names` : 'pass a fetch that goes through your proxy'}`,
    );
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new ProfileArticlesError('No fetch available: pass { fetch } on this runtime.');
  }
  const origin = normalizeBaseUrl(baseUrl);
  const level = options.logLevel ?? readEnv('PROFILE_ARTICLES_LOG');
  const { text } = createRedactor(apiKey);
  const log = createLog(
    options.logger ?? console,
    level ?? 'warn',
    options.logLevel === undefined ? 'PROFILE_ARTICLES_LOG' : 'logLevel',
    // On the console, say whose line it is; a logger of the caller's names its own source.
    options.logger ? text : (line) => text(`profile-articles: ${line}`),
  );
  const normalized = {
    apiKey,
    keyFrom: options.apiKey === undefined ? 'PROFILE_ARTICLES_API_KEY' : 'the apiKey option',
    options: {
      baseUrl: origin,
      maxRetries: Math.floor(nonNegative('maxRetries', options.maxRetries, defaultOptions.maxRetries)),
      timeoutMs: nonNegative('timeoutMs', options.timeoutMs, defaultOptions.timeoutMs),
      deadlineMs:
        options.deadlineMs === undefined ? undefined : nonNegative('deadlineMs', options.deadlineMs, 0),
      pollIntervalMs: nonNegative(
        'pollIntervalMs',
        options.pollIntervalMs,
        isLoopbackHost(new URL(origin).hostname)
          ? defaultOptions.loopbackPollIntervalMs
          : defaultOptions.pollIntervalMs,
      ),
      maxRetryDelayMs: nonNegative(
        'maxRetryDelayMs',
        options.maxRetryDelayMs,
        defaultOptions.maxRetryDelayMs,
      ),
      pacing: normalizePacing(options.pacing),
      fetch: fetchImpl,
      headers: checkHeaders('defaultHeaders', options.defaultHeaders),
      fetchOptions: checkFetchOptions('fetchOptions', options.fetchOptions),
      hooks: options.hooks ?? {},
      log,
      // The CLI names itself first (see USER_AGENT_PREFIX).
      userAgent: userAgent((options as { [USER_AGENT_PREFIX]?: string })[USER_AGENT_PREFIX]),
      spendLimit: normalizeSpendLimit(options.spendLimit),
    },
  };
  // Once the options are known good: once per client.
  const warning = plainHttpWarning(origin);
  if (warning) log.warn?.(warning);
  return normalized;
}
