// One request the caller spells itself (`profile-articles api POST /articles/x/generate`),
// through a client's own transport: its key, retries, pacing, hooks, logging, redaction and
// errors, as any call of the client has. For the CLI, through @profile-articles/sdk/internal;
// not public. The client holds the sender under a symbol (client.ts); `Symbol.for`, so the
// internal entry's symbol and the public entry's are one, though each is its own bundle.

import type { HttpMethod } from '../schemas/endpoints.js';
import { checkHeaderSafeKey } from './arguments.js';
import { checkSentUrl, checkSpelledPath } from './request-path.js';
import type { Transport } from './transport-types.js';

export const RAW_REQUEST = Symbol.for('@profile-articles/sdk:raw-request');

type Sender = Pick<Transport, 'request' | 'requestIdOf'>;

export interface RawRequest {
  method: HttpMethod;
  /**
   * Below the API prefix (`/credits`), or from the origin's root when it starts with `/api/`.
   * Encoded. A `.` or `..` segment in any spelling, or a path the URL parser takes elsewhere
   * than under /api/ on the client's origin, is an InvalidArgumentError, unsent (request-path.ts).
   */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** A POST's key: the same on every attempt; given, or made here. */
  idempotencyKey?: string;
}

export interface RawAnswer {
  status: number;
  /** The JSON body, parsed (the key redacted), unchecked by any schema. */
  data: unknown;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
}

/** The JSON body of the answer each raw request's error was made of: what `api` prints, as gh api does. */
const ERROR_BODIES = new WeakMap<Error, unknown>();

/** The answer's JSON body (the key redacted) that `error`, from `rawRequest`, was made of; else undefined. */
export function rawErrorBody(error: unknown): unknown {
  return error instanceof Error ? ERROR_BODIES.get(error) : undefined;
}

/** Sends `request` through `client`'s transport; a non-2xx answer rejects with the SDK's error for it. */
export async function rawRequest(client: object, request: RawRequest): Promise<RawAnswer> {
  const transport = (client as { [RAW_REQUEST]?: Sender })[RAW_REQUEST];
  if (!transport) throw new TypeError('rawRequest needs a ProfileArticles client');
  checkSpelledPath(request.path);
  if (request.idempotencyKey !== undefined) checkHeaderSafeKey(request.idempotencyKey);
  const idempotencyKey =
    request.method === 'POST' ? (request.idempotencyKey ?? crypto.randomUUID()) : undefined;
  const answer = await transport.request<unknown>({
    method: request.method,
    path: request.path,
    fullPath: request.path.startsWith('/api/'),
    checkUrl: checkSentUrl,
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    // A GET, or a POST made safe by its key, may be sent again; as the endpoints' calls are.
    policy: 'idempotent',
    // A 404 here is the server's answer about the path asked for, not a sign of a wrong origin.
    answers404: true,
    parse: (body) => ({ success: true, data: body }),
    onErrorBody: (error, body) => ERROR_BODIES.set(error, body),
  });
  const requestId = transport.requestIdOf(answer.response);
  return { status: answer.response.status, data: answer.data, requestId, idempotencyKey };
}
