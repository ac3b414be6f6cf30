// One HTTP attempt over ky, classified: a parsed success, or a typed error with whether
// another attempt could help and how long the server asked us to wait.
import ky, { TimeoutError as KyTimeoutError } from 'ky';
import { createApiError } from './api-error.js';
import {
  ConnectionError,
  type ProfileArticlesError,
  ResponseValidationError,
  TimeoutError,
} from './errors.js';
import type { NormalizedOptions, RequestInfo } from './options.js';
import { retryAfterMs, shouldRetryStatus } from './retry.js';
import type { RequestSpec } from './transport-types.js';

/** Connection failures that mean the request never reached the server, so even checkout may retry. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function headersToObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

async function readJson(response: Response): Promise<{ ok: true; body: unknown } | { ok: false }> {
  const text = await response.text();
  if (text === '') return { ok: true, body: undefined };
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export type AttemptOutcome<T> =
  | { kind: 'success'; value: T }
  /** `retryable`: worth another attempt; `delayMs`: what the server asked, if it did. */
  | { kind: 'failure'; error: ProfileArticlesError; retryable: boolean; delayMs: number | undefined };

export type Attempt = <T>(
  spec: RequestSpec<T>,
  info: RequestInfo,
  signal: AbortSignal | undefined,
  timeoutMs: number,
) => Promise<AttemptOutcome<T>>;

/** The key stays in this closure: it is written into one header and nowhere else. */
export function createAttempt(apiKey: string, options: NormalizedOptions): Attempt {
  const { hooks, logger } = options;

  return async function attempt<T>(
    spec: RequestSpec<T>,
    info: RequestInfo,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<AttemptOutcome<T>> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      accept: 'application/json',
    };
    if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey;
    const started = Date.now();
    let response: Response;
    let parsed: Awaited<ReturnType<typeof readJson>>;
    try {
      response = await ky(info.url, {
        method: spec.method,
        headers,
        ...(spec.body === undefined ? {} : { json: spec.body }),
        timeout: timeoutMs,
        retry: 0,
        throwHttpErrors: false,
        ...(signal ? { signal } : {}),
        fetch: options.fetch,
      });
      parsed = await readJson(response);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof KyTimeoutError || (error as Error)?.name === 'TimeoutError') {
        const timeout = new TimeoutError(`${spec.method} ${spec.path} timed out after ${timeoutMs} ms`);
        // A timed-out request may have reached the server: only idempotent calls retry.
        return {
          kind: 'failure',
          error: timeout,
          retryable: spec.policy === 'idempotent',
          delayMs: undefined,
        };
      }
      const code = errorCode(error);
      const notSent = code !== undefined && NOT_SENT_CODES.has(code);
      const reason = code ? ` (${code})` : '';
      const failure = new ConnectionError(`Could not reach ${options.baseUrl}${reason}`, { cause: error });
      return {
        kind: 'failure',
        error: failure,
        retryable: spec.policy === 'idempotent' || notSent,
        delayMs: undefined,
      };
    }
    const durationMs = Date.now() - started;
    hooks.onResponse?.({ ...info, status: response.status, durationMs });
    logger?.debug(
      `${spec.method} ${info.url} -> ${response.status} in ${durationMs} ms (attempt ${info.attempt})`,
    );

    if (response.ok) {
      const result = parsed.ok ? spec.parse(parsed.body, response.status) : undefined;
      if (result?.success) return { kind: 'success', value: result.data };
      const issues = result ? result.error.issues : [{ message: 'Body is not JSON' }];
      const error = new ResponseValidationError(
        `${spec.method} ${spec.path} answered ${response.status} with a body that does not match the interface`,
        { status: response.status, issues },
      );
      return { kind: 'failure', error, retryable: false, delayMs: undefined };
    }

    const delayMs = retryAfterMs(response.headers);
    const error = createApiError({
      status: response.status,
      statusText: response.statusText,
      headers: headersToObject(response.headers),
      body: parsed.ok ? parsed.body : undefined,
      isCheckout: spec.isCheckout === true,
      retryAfterSeconds: delayMs === undefined ? undefined : Math.ceil(delayMs / 1000),
    });
    return { kind: 'failure', error, retryable: shouldRetryStatus(response.status, spec.policy), delayMs };
  };
}
