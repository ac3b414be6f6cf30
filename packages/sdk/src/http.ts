// The one request function every call goes through: attempts over ky, retries with
// Retry-After or backoff, one idempotency key per call, timeouts, and error mapping.
import ky, { TimeoutError as KyTimeoutError } from 'ky';
import { anySignal, sleep, timeoutSignal } from './abort.js';
import { createApiError } from './api-error.js';
import {
  ConnectionError,
  type ProfileArticlesError,
  ResponseValidationError,
  TimeoutError,
} from './errors.js';
import type { NormalizedOptions, RequestInfo, RequestOptions } from './options.js';
import { backoffDelayMs, type RetryPolicy, retryAfterMs, shouldRetryStatus } from './retry.js';

/** What `safeParse` of a zod schema returns, without tying this module to zod's types. */
export type ParseResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: readonly unknown[] } };

export interface RequestSpec<T> {
  method: 'GET' | 'POST';
  /** Below `/api/v1`, already encoded. */
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  policy: RetryPolicy;
  isCheckout?: boolean;
  parse: (body: unknown) => ParseResult<T>;
}

export interface Transport {
  request<T>(spec: RequestSpec<T>, callOptions?: RequestOptions): Promise<T>;
}

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

type AttemptOutcome<T> =
  | { kind: 'success'; value: T }
  /** `retryable`: worth another attempt; `delayMs`: what the server asked, if it did. */
  | { kind: 'failure'; error: ProfileArticlesError; retryable: boolean; delayMs: number | undefined };

export function createTransport(apiKey: string, options: NormalizedOptions): Transport {
  const { hooks, logger } = options;

  async function attempt<T>(
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
      const result = parsed.ok ? spec.parse(parsed.body) : undefined;
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
  }

  async function request<T>(spec: RequestSpec<T>, call: RequestOptions = {}): Promise<T> {
    const url = `${options.baseUrl}/api/v1${spec.path}`;
    const maxRetries = call.maxRetries ?? options.maxRetries;
    const timeoutMs = call.timeoutMs ?? options.timeoutMs;
    const deadlineAt = options.deadlineMs === undefined ? undefined : Date.now() + options.deadlineMs;
    // An abort by the deadline rejects with this error; an abort by the caller with the caller's reason.
    const deadlineError = () =>
      new TimeoutError(`${spec.method} ${spec.path} ran past its deadline of ${options.deadlineMs} ms`, {
        ...(spec.idempotencyKey === undefined ? {} : { idempotencyKey: spec.idempotencyKey }),
      });
    const deadline =
      deadlineAt === undefined ? undefined : timeoutSignal(deadlineAt - Date.now(), deadlineError);
    const { signal, dispose } = anySignal([call.signal, deadline?.signal]);

    try {
      for (let attemptNumber = 1; ; attemptNumber++) {
        const info: RequestInfo = {
          method: spec.method,
          url,
          attempt: attemptNumber,
          idempotencyKey: spec.idempotencyKey,
        };
        hooks.onRequest?.(info);
        const outcome = await attempt(spec, info, signal, timeoutMs);
        if (outcome.kind === 'success') return outcome.value;

        const { error } = outcome;
        error.attempts = attemptNumber;
        if (spec.idempotencyKey !== undefined) error.idempotencyKey = spec.idempotencyKey;
        if (!outcome.retryable || attemptNumber > maxRetries) throw error;

        const delayMs = outcome.delayMs ?? backoffDelayMs(attemptNumber);
        if (outcome.delayMs !== undefined && outcome.delayMs > options.maxRetryDelayMs) {
          // The server asked for a longer wait than the caller allows: fail now, say how long.
          throw error;
        }
        if (deadlineAt !== undefined && Date.now() + delayMs > deadlineAt) {
          const timeout = deadlineError();
          timeout.message += `; last error: ${error.message}`;
          timeout.attempts = attemptNumber;
          throw Object.assign(timeout, { cause: error });
        }
        hooks.onRetry?.({ ...info, delayMs, error });
        logger?.debug(`retrying ${spec.method} ${url} in ${Math.round(delayMs)} ms after: ${error.message}`);
        await sleep(delayMs, signal);
      }
    } finally {
      dispose();
      deadline?.dispose();
    }
  }

  return { request };
}
