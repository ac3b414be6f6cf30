// Client options: what users pass, and the fully filled shape the rest of the SDK reads.

import { InvalidArgumentError, ProfileArticlesError } from '../errors/errors.js';
import { createRedactor } from '../redaction/redact.js';
import type { Pacing } from '../retry/pacing.js';
import { API_PREFIX } from '../schemas/endpoints.js';
import { checkApiKey, checkFetchOptions, checkHeaders, nonNegative } from './arguments.js';
import { defaultOptions, isLoopbackHost } from './defaults.js';
import { createLog, plainHttpWarning } from './log.js';
import type { ClientOptions, Middleware, NormalizedOptions } from './option-types.js';
import { runtime, USER_AGENT_PREFIX, userAgent } from './user-agent.js';

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

function normalizeMiddleware(value: unknown): readonly Middleware[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'function')) {
    throw new InvalidArgumentError('middleware must be an array of functions');
  }
  return value.length > 0 ? [...value] : undefined;
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
      middleware: normalizeMiddleware(options.middleware),
      log,
      // The CLI names itself first (see USER_AGENT_PREFIX).
      userAgent: userAgent((options as { [USER_AGENT_PREFIX]?: string })[USER_AGENT_PREFIX]),
      spendLimit: normalizeSpendLimit(options.spendLimit),
      tracing: options.tracing !== false && options.tracerProvider,
    },
  };
  // Once the options are known good: once per client.
  const warning = plainHttpWarning(origin);
  if (warning) log.warn?.(warning);
  return normalized;
}
