// One HTTP attempt over fetch, classified: a parsed success, or a typed error with whether
// another attempt could help and how long the server asked us to wait. The attempt's timeout
// covers the body too, a body is read up to MAX_RESPONSE_BYTES, and a redirect is never followed.
// The SDK calls fetch itself: an HTTP library's retries, hooks and option merging would all go
// unused (docs/decisions/0011-fetch-without-ky.md).

import type { AttemptInfo, NormalizedOptions } from '../core/option-types.js';
import type { Answer, CallExtras, RequestSpec } from '../core/transport-types.js';
import {
  ConnectionError,
  type ErrorContext,
  InvalidArgumentError,
  type ProfileArticlesError,
  ResponseValidationError,
  TimeoutError,
} from '../errors/errors.js';
import type { ResponseIssue } from '../errors/response-issue.js';
import type { Redactor } from '../redaction/redact.js';
import { boundedSignal, untilAborted } from '../retry/abort.js';
import { shouldRetryStatus } from '../retry/retry.js';
import type { MiddlewareSend } from './middleware.js';
import { type BodyRead, MAX_RESPONSE_BYTES, readBody } from './read-body.js';
import { type AttemptInit, type SendWithin, sendWithinOf, TIMED_OUT } from './timed-send.js';

/** What a ConnectionError says when no attempt of the call reached the server (see internal.ts). */
export const NOTHING_REACHED = 'nothing reached the server';

/** What the error of a call whose request may have reached the server says (see internal.ts). */
export const MAY_HAVE_ACTED = '; the server may have acted on the request';
/** What a generate's or an update's lost answer advises in the SDK's words (the CLI has its own). */
export const KEY_ADVICE = ': pass error.idempotencyKey as idempotencyKey to retry it without a second charge';

/**
 * What the error of a call whose request may have reached the server adds: that the server may
 * have acted on it, and what that means for this call. Nothing for a free GET (a balance, a
 * job), which changes nothing.
 */
export const mayHaveActed = (spec: RequestSpec<unknown>): string =>
  spec.price || spec.method !== 'GET'
    ? `${MAY_HAVE_ACTED}${spec.idempotencyKey !== undefined ? KEY_ADVICE : spec.isCheckout ? ': a checkout session may exist' : ''}`
    : '';

/** Connection failures that mean the request never reached the server, so even checkout may retry. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  // A tunnel through the proxy that never opened (the Node entry's `proxy` option).
  'ERR_PROXY_TUNNEL',
]);

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function parseJson(text: string, redact: Redactor): { ok: true; body: unknown } | { ok: false } {
  if (text === '') return { ok: true, body: undefined };
  try {
    return { ok: true, body: redact.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** zod's issues without their `input`: that is server data, and may be large or hold anything. */
function toResponseIssues(issues: readonly ResponseIssue[], redact: Redactor): ResponseIssue[] {
  return issues.map(({ code, path, message }) => redact.json({ code, path: [...path], message }));
}

type AttemptOutcome<T> =
  | { kind: 'success'; value: Answer<T>; status: number }
  /**
   * `retryable`: worth another attempt; `delayMs`: what the server asked, if it did;
   * `notSent`: the request surely never reached the server.
   */
  | {
      kind: 'failure';
      error: ProfileArticlesError;
      retryable: boolean;
      delayMs: number | undefined;
      notSent?: boolean;
    };

export type Attempt = <T>(
  spec: RequestSpec<T>,
  info: AttemptInfo,
  signal: AbortSignal | undefined,
  timeoutMs: number,
  /** The call's own headers and fetch fields, if it or the client has any. */
  extras: CallExtras | undefined,
  /** Whether an earlier attempt of the call may have reached the server. */
  reachedBefore: boolean,
) => Promise<AttemptOutcome<T>>;

const failure = (error: ProfileArticlesError, retryable: boolean, delayMs?: number) =>
  ({ kind: 'failure', error, retryable, delayMs }) as const;

/** What readBody would give, for a 2xx handed over unread (`asResponse()`). */
const UNREAD = { kind: 'unread' } as const;

/** The key stays in this closure: it is written into one header and nowhere else. */
export function createAttempt(
  apiKey: string,
  options: NormalizedOptions,
  redact: Redactor,
  requestIdOf: (response: Response) => string | undefined,
  /** Where the key came from, which a 401 names. */
  keyFrom: string,
): Attempt {
  const { hooks } = options;
  // Called unbound, never as `options.fetch(…)`: workerd's fetch throws "Illegal invocation"
  // when `this` is anything but the global scope or undefined (the options object here).
  const send = options.fetch;
  // On Node the default fetch bounds its own wait for headers (see timed-send.ts).
  const ownSendWithin = sendWithinOf(send);
  const { middleware } = options;
  // Loaded with the first attempt of a client that has middleware (middleware.ts).
  const throughMiddleware = async (url: string, init: AttemptInit, failed: MiddlewareSend) => {
    const { throughMiddleware: run } = await import('./middleware.js');
    return run(middleware ?? [], url, init, send, failed);
  };

  return async function attempt<T>(
    spec: RequestSpec<T>,
    info: AttemptInfo,
    signal: AbortSignal | undefined,
    timeoutMs: number,
    extras: CallExtras | undefined,
    reachedBefore: boolean,
  ): Promise<AttemptOutcome<T>> {
    // The caller's headers after the User-Agent, which they may replace; none of them can be
    // the key, the Idempotency-Key or the content type (arguments.ts refuses the SDK's own).
    const headers: Record<string, string> = extras?.headers
      ? {
          accept: 'application/json',
          'user-agent': options.userAgent,
          ...extras.headers,
          authorization: `Bearer ${apiKey}`,
        }
      : { authorization: `Bearer ${apiKey}`, accept: 'application/json', 'user-agent': options.userAgent };
    if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    // `fetchOptions` go into the fetch's init, under the SDK's own fields (arguments.ts refuses
    // those in them anyway); node:http leaves such a request to Node's fetch.
    const fetchOptions = extras?.fetchOptions;
    // Middleware runs inside the attempt's time limit: the timer's, which bounds the whole chain.
    const sendWithin: SendWithin | undefined = fetchOptions || middleware ? undefined : ownSendWithin;
    // Every error of this attempt is built whole, with what the caller needs to retry safely.
    const context: ErrorContext = {
      attempts: info.attempt,
      idempotencyKey: spec.idempotencyKey,
    };
    // One time limit from sending to the last byte of the body: headers alone do not end an
    // attempt. The wait for headers is bounded by the fetch's own `sendWithin` when it has one,
    // else by a timer that aborts the request's signal (and ends the wait even if the fetch
    // ignores it); readBody gets what is left. On Node no AbortController is made: that was a
    // tenth of a call's CPU time.
    const started = Date.now();
    // Spelled only when an attempt times out: not on every call's path.
    const timedOut = () => `${spec.method} ${spec.path} timed out after ${timeoutMs} ms`;
    // The reason a given fetch rejects with, as AbortSignal.timeout() gives one: an Error its
    // wrapper can log (a Symbol cannot even be put in a template string).
    const limit = sendWithin
      ? undefined
      : boundedSignal(signal, timeoutMs, () => new DOMException(timedOut(), 'TimeoutError'));
    let response: Response;
    let body: BodyRead | typeof UNREAD;
    // What the send itself rejected with, under middleware: anything else a middleware threw is its own.
    const failed: MiddlewareSend | undefined = middleware && {};
    try {
      const init: AttemptInit = {
        ...fetchOptions,
        method: spec.method,
        headers,
        // Following a redirect would re-send the body and Idempotency-Key to another address.
        redirect: 'manual',
        signal: limit ? limit.signal : (signal ?? null),
      };
      if (spec.body !== undefined) init.body = JSON.stringify(spec.body);
      response = limit
        ? await untilAborted(
            failed ? throughMiddleware(info.url, init, failed) : send(info.url, init),
            limit.signal,
          )
        : await (sendWithin as SendWithin)(info.url, init, timeoutMs);
      limit?.dispose();
      body =
        response.ok && spec.mode?.raw
          ? UNREAD
          : await readBody(response, signal, timeoutMs - (Date.now() - started));
    } catch (error) {
      limit?.dispose();
      if (signal?.aborted) throw signal.reason;
      if (error === TIMED_OUT || limit?.signal.aborted) {
        const timeout = new TimeoutError(timedOut() + mayHaveActed(spec), context);
        // A timed-out request may have reached the server: only idempotent calls retry.
        return failure(timeout, spec.policy === 'idempotent');
      }
      // Refused before anything was sent (a proxy client's fetch takes no fetchOptions; what a
      // middleware handed on): not retried, and nothing can have been charged. A middleware's
      // second next() is refused after the first was sent: that one may have been charged.
      if (error instanceof InvalidArgumentError) {
        return { ...failure(error, false), notSent: failed?.sent !== true };
      }
      // A middleware's own error is the call's, as it threw it.
      if (failed && error !== failed.error) throw error;
      const code = errorCode(error);
      const notSent = code !== undefined && NOT_SENT_CODES.has(code);
      const reason = code ? ` (${code})` : '';
      // A failure at the proxy says so (see proxy.ts), with the proxy's own words (its reason
      // phrase: redacted, then cut short), as does an answer with more codings than are
      // decoded (node-fetch.ts marks its own; undici's says "too many content-encodings").
      const said = (error as { cause?: { proxy?: true; explained?: true; words?: string; message: string } })
        .cause;
      const told =
        said?.proxy || said?.explained || /^too many content-encodings\b/.test(String(said?.message));
      const words = said?.words ? ` ${redact.text(said.words).slice(0, 80)}` : '';
      const where = told ? `: ${redact.text(String(said?.message))}${words}` : '';
      // Said only when it holds for the whole call: then nothing can have been charged.
      // Otherwise an attempt may have reached the server (this one, or one before it).
      const unsent = notSent && !reachedBefore ? `; ${NOTHING_REACHED}` : mayHaveActed(spec);
      const broken = new ConnectionError(`Could not reach ${options.baseUrl}${reason}${where}${unsent}`, {
        ...context,
        cause: redact.cause(error),
      });
      return { ...failure(broken, spec.policy === 'idempotent' || notSent), notSent };
    }
    const durationMs = Date.now() - started;
    hooks.onResponse?.({ ...info, status: response.status, durationMs, requestId: requestIdOf(response) });
    if (body.kind === 'unread') {
      return {
        kind: 'success',
        value: { data: undefined as T, response, raw: true },
        status: response.status,
      };
    }

    const answered = `${spec.method} ${spec.path} answered ${response.status}`;
    if (body.kind === 'too-large') {
      const message = `Body larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB; not read`;
      const issues = [{ code: 'too_big', path: [], message }];
      // The next attempt would meet the same answer: not retried.
      return failure(
        new ResponseValidationError(
          `${answered} with a body larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB; not read`,
          { ...context, requestId: requestIdOf(response), status: response.status, issues },
        ),
        false,
      );
    }
    const parsed = parseJson(body.text, redact);

    if (response.ok) {
      const result = parsed.ok ? spec.parse(parsed.body, response.status) : undefined;
      if (result?.success) {
        return { kind: 'success', value: { data: result.data, response }, status: response.status };
      }
      const issues = result
        ? toResponseIssues(result.error.issues, redact)
        : [{ code: 'invalid_json', path: [], message: 'Body is not JSON' }];
      const error = new ResponseValidationError(`${answered} with a body that does not match the interface`, {
        ...context,
        requestId: requestIdOf(response),
        status: response.status,
        issues,
      });
      return failure(error, false);
    }

    // Loaded with the first answer that is not a 2xx (answer-error.ts).
    const { answerError } = await import('./answer-error.js');
    const [error, delayMs] = answerError({
      response,
      body: parsed.ok ? parsed.body : undefined,
      spec,
      redact,
      baseUrl: options.baseUrl,
      keyFrom,
      context: { ...context, requestId: requestIdOf(response) },
    });
    if (parsed.ok) spec.onErrorBody?.(error, parsed.body);
    return failure(error, shouldRetryStatus(response.status, spec.policy), delayMs);
  };
}
