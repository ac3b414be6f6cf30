// Every error the SDK throws, in one place. All extend ProfileArticlesError, so
// `catch (e) { if (e instanceof ProfileArticlesError) … }` covers the SDK entirely.
// No error ever holds the request, its headers or the API key.
import type { ErrorDetail } from './schemas/error-body.js';
import type { Job } from './schemas/job.js';
import type { ResponseIssue } from './transport-types.js';

export interface ErrorContext {
  /** How many HTTP attempts the call made before it gave up. */
  attempts?: number;
  /** The `Idempotency-Key` a generate or update call used: reuse it to retry safely later. */
  idempotencyKey?: string;
  cause?: unknown;
}

export class ProfileArticlesError extends Error {
  override name = 'ProfileArticlesError';
  attempts: number | undefined;
  idempotencyKey: string | undefined;

  constructor(message: string, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.attempts = context.attempts;
    this.idempotencyKey = context.idempotencyKey;
  }
}

/** An argument the SDK refuses before sending anything: a bad id, key, option or amount. */
export class InvalidArgumentError extends ProfileArticlesError {
  override name = 'InvalidArgumentError';
}

export interface ApiErrorInit extends ErrorContext {
  status: number;
  detail: ErrorDetail;
  headers: Record<string, string>;
}

/** Any non-2xx answer of the API. */
export class ApiError extends ProfileArticlesError {
  override name = 'ApiError';
  readonly status: number;
  readonly detail: ErrorDetail;
  readonly headers: Record<string, string>;

  constructor(message: string, init: ApiErrorInit) {
    super(message, init);
    this.status = init.status;
    this.detail = init.detail;
    this.headers = init.headers;
  }
}

export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
export class InsufficientCreditsError extends ApiError {
  override name = 'InsufficientCreditsError';
}
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
export class ValidationError extends ApiError {
  override name = 'ValidationError';
}
export class CheckoutUnavailableError extends ApiError {
  override name = 'CheckoutUnavailableError';
}
export class PaymentsNotConfiguredError extends ApiError {
  override name = 'PaymentsNotConfiguredError';
}
export class ServerError extends ApiError {
  override name = 'ServerError';
}

export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** Seconds the server asked us to wait, when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, init: ApiErrorInit & { retryAfterSeconds: number | undefined }) {
    super(message, init);
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** The server could not be reached, or the connection broke before an answer came. */
export class ConnectionError extends ProfileArticlesError {
  override name = 'ConnectionError';
}

/** An attempt, the call's deadline or a `waitFor` ran past its time. */
export class TimeoutError extends ProfileArticlesError {
  override name = 'TimeoutError';
  /** From `jobs.waitFor`: the last state seen. The job goes on on the server. */
  readonly job: Job | undefined;

  constructor(message: string, context: ErrorContext & { job?: Job } = {}) {
    super(message, context);
    this.job = context.job;
  }
}

/** A waited job ended `failed` or `cancelled`; its credits were refunded. */
export class JobFailedError extends ProfileArticlesError {
  override name = 'JobFailedError';
  readonly job: Job;

  constructor(job: Job, context: ErrorContext = {}) {
    const reason = job.error ? `: ${job.error}` : '';
    super(`Job ${job.job_id} for "${job.profile_id}" ended ${job.status}${reason}`, context);
    this.job = job;
  }
}

/** A 2xx body that does not match the interface, or any body larger than 10 MiB. */
export class ResponseValidationError extends ProfileArticlesError {
  override name = 'ResponseValidationError';
  readonly status: number;
  /** zod's issues (code, path, message), or one `invalid_json` / `too_big` issue. */
  readonly issues: readonly ResponseIssue[];

  constructor(message: string, init: ErrorContext & { status: number; issues: readonly ResponseIssue[] }) {
    super(message, init);
    this.status = init.status;
    this.issues = init.issues;
  }
}
