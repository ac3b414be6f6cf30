// `client.request()`: one request the caller spells itself, for a field or an endpoint the SDK
// does not model yet (`profile-articles api POST /articles/x/update` sends one), through the
// client's own transport: its key, retries, pacing, spend limit, hooks, logging, redaction and
// errors, as every method has. A path the contract table knows keeps that endpoint's rules: its
// retry policy (a checkout is not retried after it may have been sent), its Idempotency-Key and
// its price under `spendLimit`. The client imports this
// module when its first `request()` is made (client.ts): most programs never make one.

import { InvalidArgumentError } from '../errors/errors.js';
import type { RetryPolicy } from '../retry/retry.js';
import { API_PREFIX, ENDPOINTS, type Endpoint } from '../schemas/endpoints.js';
import { IdempotencyKeySchema } from '../schemas/profile-request.js';
import { checkHeaderSafeKey } from './arguments.js';
import { checkArgument, parserFor } from './endpoint-call.js';
import type { RequestOptions } from './option-types.js';
import { checkSentUrl, checkSpelledPath } from './request-path.js';
import type { Answer, RequestMethod, RequestSpec, Transport } from './transport-types.js';

export type { RequestMethod };

/**
 * How a request is retried when it carries no Idempotency-Key: a read's way, or only when it
 * surely was not sent (as checkout is). The keys are the methods `request()` sends.
 */
const WITHOUT_KEY: Readonly<Record<RequestMethod, RetryPolicy>> = {
  GET: 'idempotent',
  POST: 'unsafe',
  PUT: 'idempotent',
  PATCH: 'unsafe',
  DELETE: 'idempotent',
};
const METHODS = Object.keys(WITHOUT_KEY);

/** What `client.request()` takes. */
export interface RawRequest extends Pick<RequestOptions, 'signal' | 'timeoutMs' | 'maxRetries' | 'headers'> {
  method: RequestMethod;
  /**
   * Below the API prefix (`/credits`), or from the origin's root when it starts with `/api/`.
   * Encoded. A `.` or `..` segment in any spelling, a path starting with `//` or `\`, or one the
   * URL parser takes elsewhere than under /api/ on the client's origin, is an
   * InvalidArgumentError, and nothing is sent (request-path.ts).
   */
  path: string;
  /** Added to the path's query (after any it has), each value as a string. */
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Sent as JSON. Not with GET. */
  body?: unknown;
  /**
   * A POST's `Idempotency-Key`, the same on every attempt; without it, one is made for the call
   * (`error.idempotencyKey` carries it). Not for `POST /credits/checkout`, which takes none.
   */
  idempotencyKey?: string;
}

/** Where the JSON body of a non-2xx answer to `request()` is kept on its error, for the CLI's `api`. */
const ERROR_BODY = Symbol.for('@profile-articles/sdk:error-body');

/** The answer's JSON body (the key redacted) that `error`, from `request()`, was made of; else undefined. */
export function rawErrorBody(error: unknown): unknown {
  return error instanceof Error ? (error as { [ERROR_BODY]?: unknown })[ERROR_BODY] : undefined;
}

/**
 * A path's segments as a server may read them, each percent-decoded (`/%61rticles` is
 * `/articles` there, and costs what it costs; a `%2F` stays inside its segment), and without
 * the empty ones a server may collapse (`//`, a trailing `/`): a spelling that reaches a paid
 * endpoint is priced as that endpoint, and one the server refuses is answered and costs nothing.
 */
function segmentsOf(path: string): string[] {
  const decoded = path.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment; // a `%` that starts no escape: the server cannot decode it either
    }
  });
  return decoded.filter((segment, i) => i === 0 || segment !== '');
}

/** The segments of the path the URL parser sends for `path` (below the origin), or undefined. */
function sentSegments(path: string): string[] | undefined {
  try {
    return segmentsOf(new URL(`http://api.invalid${path}`).pathname);
  } catch {
    return undefined; // not a URL: the transport refuses it before sending
  }
}

/** The table's endpoint for `method` and `parts`, the segments below the prefix, if any. */
function knownEndpoint(method: string, parts: readonly string[]): Endpoint | undefined {
  return Object.values(ENDPOINTS as Record<string, Endpoint>).find((endpoint) => {
    const template = endpoint.path.split('/');
    return (
      endpoint.method === method &&
      template.length === parts.length &&
      template.every((part, i) => (part.startsWith('{') ? parts[i] !== '' : part === parts[i]))
    );
  });
}

/** `request`'s spec for the transport; throws InvalidArgumentError before anything is sent. */
function rawSpec(request: RawRequest, mode: { raw: boolean }): [RequestSpec<unknown>, () => unknown] {
  const method = String(request.method).toUpperCase() as RequestMethod;
  if (!METHODS.includes(method)) {
    throw new InvalidArgumentError(
      `method must be one of ${METHODS.join(', ')}, got ${JSON.stringify(request.method)}`,
    );
  }
  const { path, query, body } = request;
  if (typeof path !== 'string') throw new InvalidArgumentError('path must be a string, such as /credits');
  checkSpelledPath(path);
  if (body !== undefined && method === 'GET') throw new InvalidArgumentError('A GET sends no body');
  const fullPath = path.startsWith('/api/');
  // Matched as the server reads the path, so that no spelling of a paid endpoint goes unpriced:
  // the path the URL parser makes of it (`\` is `/`; tabs and newlines are dropped, trailing
  // spaces and controls trimmed; the query cut off), split and decoded as segmentsOf says.
  const prefix = segmentsOf(API_PREFIX);
  const parts = sentSegments(`${fullPath ? '' : API_PREFIX}${path}`);
  const below =
    parts && prefix.every((segment, i) => parts[i] === segment) && parts.length > prefix.length
      ? ['', ...parts.slice(prefix.length)]
      : undefined;
  const endpoint = below === undefined ? undefined : knownEndpoint(method, below);
  // A known endpoint takes a key when the table says so; any other POST gets one, as generate does.
  const takesKey = endpoint ? endpoint.headers['idempotency-key'] !== undefined : method === 'POST';
  const given = request.idempotencyKey;
  if (given !== undefined) {
    if (!takesKey) {
      throw new InvalidArgumentError(
        endpoint
          ? `${method} ${endpoint.path} takes no idempotencyKey: the interface does not make it safe to repeat`
          : 'idempotencyKey goes with a POST',
      );
    }
    checkArgument('idempotencyKey', IdempotencyKeySchema, given);
    checkHeaderSafeKey(given);
  }
  // A key makes a request safe to send again, as generate's does.
  const policy: RetryPolicy = takesKey ? 'idempotent' : WITHOUT_KEY[method];
  let search = '';
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search += `&${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
  }
  // The body as it came (redacted) is what the caller gets, checked by no schema. The spend
  // ledger gets the table's parse of it where the path is the table's and the body matches; else
  // nothing, and counts what such a call may have cost (as for an answer handed over unread).
  let answered: unknown;
  const check = endpoint ? parserFor(endpoint) : undefined;
  const spec: RequestSpec<unknown> = {
    method,
    path: search ? `${path}${path.includes('?') ? '&' : '?'}${search.slice(1)}` : path,
    fullPath,
    checkUrl: checkSentUrl,
    policy,
    isCheckout: endpoint ? endpoint.errors.includes(502) || endpoint.errors.includes(503) : false,
    // A 404 for a path the table does not know is the server's answer about that path.
    answers404: endpoint ? endpoint.errors.includes(404) : true,
    mode,
    parse: (json, status) => {
      answered = json;
      const checked = check?.(json, status);
      return { success: true, data: checked?.success ? checked.data : undefined };
    },
    onErrorBody: (error, json) => Object.defineProperty(error, ERROR_BODY, { value: json }),
  };
  if (body !== undefined) spec.body = body;
  if (takesKey) spec.idempotencyKey = given ?? crypto.randomUUID();
  if (endpoint) {
    if (endpoint.price) spec.price = endpoint.price;
    // Its span is still `profile_articles.request`, with the contract's path as url.template.
    spec.endpoint = endpoint;
    spec.operation = 'request';
  }
  return [spec, () => answered];
}

/** One `request()` through `transport`: the answer with the JSON body as it came. */
export async function sendRaw(
  transport: Pick<Transport, 'request'>,
  request: RawRequest,
  mode: { raw: boolean },
): Promise<Answer<unknown>> {
  if (Object(request) !== request) throw new InvalidArgumentError('request() takes { method, path, … }');
  const [spec, body] = rawSpec(request, mode);
  const { signal, timeoutMs, maxRetries, headers } = request;
  const answer = await transport.request(spec, { signal, timeoutMs, maxRetries, headers } as RequestOptions);
  return answer.raw ? answer : { data: body(), response: answer.response };
}
