// The root of every SDK error, in a file of its own so that the error modules can extend it
// without importing each other in a cycle.
import type { ErrorDetail } from '../schemas/error-body.js';

export interface ErrorContext {
  /** How many HTTP attempts the call made before it gave up. */
  attempts?: number;
  /** The `Idempotency-Key` a generate or update call used: reuse it to retry safely later. */
  idempotencyKey?: string | undefined;
  /** The `X-Request-Id` of the answer the error comes from. */
  requestId?: string | undefined;
  cause?: unknown;
}

/** The fields `toJSON()` gives, those that are set; never the API key. */
const JSON_FIELDS = [
  'name',
  'message',
  'status',
  'requestId',
  'detail',
  'idempotencyKey',
  'attempts',
] as const;

export class ProfileArticlesError extends Error {
  override readonly name: string = 'ProfileArticlesError';
  /** How many HTTP attempts the call made; undefined when none was made. */
  readonly attempts: number | undefined;
  /** The `Idempotency-Key` a generate or update call used: reuse it to retry safely later. */
  readonly idempotencyKey: string | undefined;
  /**
   * The server's `X-Request-Id` for the answer this error comes from (of a wait, its last poll),
   * to quote when asking about a call. Undefined when there was no answer, or its id was not
   * 1 to 200 printable ASCII characters.
   */
  readonly requestId: string | undefined;

  constructor(message: string, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.attempts = context.attempts;
    this.idempotencyKey = context.idempotencyKey;
    this.requestId = context.requestId;
  }

  /** What a log or an error tracker needs, for `JSON.stringify`: the fields that are set. */
  toJSON(): {
    name: string;
    message: string;
    status?: number;
    requestId?: string;
    detail?: ErrorDetail;
    idempotencyKey?: string;
    attempts?: number;
  } {
    const fields = this as unknown as Record<string, unknown>;
    const json: Record<string, unknown> = {};
    for (const name of JSON_FIELDS) if (fields[name] !== undefined) json[name] = fields[name];
    return json as ReturnType<ProfileArticlesError['toJSON']>;
  }
}
