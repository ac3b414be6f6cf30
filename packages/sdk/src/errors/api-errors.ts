// The error of each non-2xx answer. `status` is a literal type on every class that has one
// status (`NotFoundError['status']` is `404`), as in openai-node. error-from-answer.ts picks the class.

import type { ErrorDetail, ValidationIssue } from '../schemas/error-body.js';
import { type ErrorContext, ProfileArticlesError } from './base-error.js';

export interface ApiErrorInit<Status extends number = number> extends ErrorContext {
  status: Status;
  /** The body's `detail`: a message, or validation issues. */
  detail: ErrorDetail;
  headers: AnswerHeaders;
}

/**
 * An answer's headers as a plain object of lower-case names (`error.headers['x-request-id']`),
 * redacted of the key; not a `Headers`, so it survives `structuredClone` and JSON as it is.
 */
export type AnswerHeaders = Readonly<Record<string, string | undefined>>;

/** A `detail` for display: the string, or the validation entries' messages joined. */
export function describeDetail(detail: ErrorDetail): string {
  if (typeof detail === 'string') return detail;
  return detail
    .map((entry) => {
      const loc = entry.loc ? `${entry.loc.join('.')}: ` : '';
      return `${loc}${entry.msg ?? JSON.stringify(entry)}`;
    })
    .join('; ');
}

/** What a class with one status takes: the status comes from the class. */
export type StatusErrorInit = Omit<ApiErrorInit, 'status'>;

/** Any non-2xx answer of the API (a 3xx included: redirects are never followed). */
export class ApiError<Status extends number = number> extends ProfileArticlesError {
  override readonly name: string = 'ApiError';
  readonly status: Status;
  readonly detail: string | ValidationIssue[];
  /**
   * The answer's headers: a plain object of lower-case names, `error.headers['retry-after']`
   * (not a `Headers`: no `.get()`); a header the answer lacks is undefined.
   */
  readonly headers: AnswerHeaders;

  constructor(message: string, init: ApiErrorInit<Status>) {
    super(message, init);
    this.status = init.status;
    this.detail = init.detail;
    this.headers = init.headers;
  }
}

/** 400: a purchase outside the allowed range. */
export class BadRequestError extends ApiError<400> {
  override readonly name: string = 'BadRequestError';
  constructor(message: string, init: StatusErrorInit) {
    super(message, { ...init, status: 400 });
  }
}

/** 401: the key is missing or refused. */
export class AuthenticationError extends ApiError<401> {
  override readonly name: string = 'AuthenticationError';
  constructor(message: string, init: StatusErrorInit) {
    super(message, { ...init, status: 401 });
  }
}

/** 402: not enough credits. */
export class InsufficientCreditsError extends ApiError<402> {
  override readonly name: string = 'InsufficientCreditsError';
  constructor(message: string, init: StatusErrorInit) {
    super(message, { ...init, status: 402 });
  }
}

/** 404: no such profile, article or job for this account. */
export class NotFoundError extends ApiError<404> {
  override readonly name: string = 'NotFoundError';
  constructor(message: string, init: StatusErrorInit) {
    super(message, { ...init, status: 404 });
  }
}

/** 409: another job is active for the profile, or the key was used for another request. */
export class ConflictError extends ApiError<409> {
  override readonly name: string = 'ConflictError';
  constructor(message: string, init: StatusErrorInit) {
    super(message, { ...init, status: 409 });
  }
}

/** 422: the request broke the interface; `detail` is usually the list of issues. */
export class ValidationError extends ApiError<422> {
  override readonly name: string = 'ValidationError';
  constructor(message: string, init: StatusErrorInit) {
    super(message, { ...init, status: 422 });
  }
}

/** 429: over the account's rate. */
export class RateLimitError extends ApiError<429> {
  override readonly name: string = 'RateLimitError';
  /** Seconds the server asked us to wait (`Retry-After`), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, init: StatusErrorInit & { retryAfterSeconds: number | undefined }) {
    super(message, { ...init, status: 429 });
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** 502 from checkout: the payment provider is unavailable. */
export class CheckoutUnavailableError extends ApiError<502> {
  override readonly name: string = 'CheckoutUnavailableError';
  constructor(message: string, init: StatusErrorInit) {
    super(message, { ...init, status: 502 });
  }
}

/** 503 from checkout: payments are not configured. */
export class PaymentsNotConfiguredError extends ApiError<503> {
  override readonly name: string = 'PaymentsNotConfiguredError';
  constructor(message: string, init: StatusErrorInit) {
    super(message, { ...init, status: 503 });
  }
}

/** Any other 5xx (a 502 or 503 outside checkout included). */
export class ServerError extends ApiError {
  override readonly name: string = 'ServerError';
}
