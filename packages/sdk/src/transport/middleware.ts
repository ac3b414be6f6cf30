// The `middleware` option around one attempt: each function gets the attempt's URL and init and
// a `next` that calls the one after it, the last `next` sending the request. What a middleware
// hands on is checked before anything is sent: the headers that carry the key, the call's
// Idempotency-Key and the body's type stay the SDK's (a change is an InvalidArgumentError), as
// do the URL (the key goes nowhere else), the method and the body (the Idempotency-Key promises
// the server the same request each time). Imported by attempt.ts only for a client that has
// middleware.

import { checkHeaders, OWN_HEADERS } from '../core/arguments.js';
import type { Middleware, MiddlewareRequest } from '../core/option-types.js';
import { InvalidArgumentError } from '../errors/errors.js';
import type { AttemptInit } from './timed-send.js';

/** What the SDK sets and a middleware may not change: as `headers` and `defaultHeaders` may not. */
const FIXED = OWN_HEADERS;

/** Any spelling of headers fetch takes (a Headers, pairs, a record) as one record of lower-case names. */
function lowerCased(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    new Headers(headers as HeadersInit).forEach((value, name) => {
      out[name] = value;
    });
  } catch {
    throw new InvalidArgumentError('middleware: the headers handed to next() cannot be sent as HTTP headers');
  }
  return out;
}

/** What one attempt's chain did: whether it sent, and what the send rejected with, if it did. */
export interface MiddlewareSend {
  sent?: boolean;
  error?: unknown;
}

/**
 * The attempt's request through `middleware`, sent by `send` at the end of the chain.
 * `failure.error` is set to what `send` rejected with, if it did.
 */
export function throughMiddleware(
  middleware: readonly Middleware[],
  url: string,
  init: AttemptInit,
  send: (url: string, init: AttemptInit) => Promise<Response>,
  /** Where the error the send itself rejected with is kept: the attempt tells it from a middleware's own. */
  failure: MiddlewareSend,
): Promise<Response> {
  const { method, body, signal } = init;
  const fixed = (headers: Record<string, string>) => FIXED.map((name) => headers[name]);
  const own = fixed(init.headers);
  const last = async (request: MiddlewareRequest): Promise<Response> => {
    if (request?.url !== url || request.init?.method !== method || request.init.body !== body) {
      throw new InvalidArgumentError('middleware cannot change the URL, method or body of a request');
    }
    // One send an attempt: the SDK retries itself, with the call's key and its spend counted
    // once an attempt; a middleware that sent again would pass both by.
    if (failure.sent) {
      throw new InvalidArgumentError('middleware may call next() once an attempt: the SDK retries by itself');
    }
    const headers = lowerCased(request.init.headers);
    const changed = fixed(headers).findIndex((value, i) => value !== own[i]);
    if (changed >= 0) {
      throw new InvalidArgumentError(`middleware cannot set ${FIXED[changed]}: the SDK sets it itself`);
    }
    const rest: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) if (!FIXED.includes(name)) rest[name] = value;
    const checked = checkHeaders('middleware', rest) ?? {};
    FIXED.forEach((name, i) => {
      if (own[i] !== undefined) checked[name] = own[i];
    });
    // The SDK's signal (its time limit) and redirect rule, whatever the middleware handed on.
    const sent = { ...request.init, method, headers: checked, redirect: 'manual', signal } as AttemptInit;
    if (body === undefined) delete sent.body;
    else sent.body = body;
    failure.sent = true;
    try {
      return await send(url, sent);
    } catch (error) {
      failure.error = error;
      throw error;
    }
  };
  const chain = middleware.reduceRight<(request: MiddlewareRequest) => Promise<Response>>(
    (next, run) => async (request) => run(request, next),
    last,
  );
  return chain({ url, init });
}
