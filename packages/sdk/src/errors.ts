// Every error the SDK throws. All extend ProfileArticlesError, so
// `catch (e) { if (e instanceof ProfileArticlesError) … }` covers the SDK entirely.
// Each is built whole in its constructor and its fields are readonly.
// No error ever holds the request, its headers or the API key.

import { type ErrorContext, ProfileArticlesError } from './base-error.js';
import type { Job } from './schemas/job.js';
import type { ResponseIssue } from './transport-types.js';

export * from './api-errors.js';
export { type ErrorContext, ProfileArticlesError } from './base-error.js';

/** An argument the SDK refuses before sending anything: a bad id, key, option or amount. */
export class InvalidArgumentError extends ProfileArticlesError {
  override readonly name: string = 'InvalidArgumentError';
}

/** The server could not be reached, or the connection broke before an answer came. */
export class ConnectionError extends ProfileArticlesError {
  override readonly name: string = 'ConnectionError';
}

/** An attempt, the call's deadline or a `waitFor` ran past its time. */
export class TimeoutError extends ProfileArticlesError {
  override readonly name: string = 'TimeoutError';
  /** From `jobs.waitFor`: the last state seen. The job keeps running on the server. */
  readonly job: Job | undefined;

  constructor(message: string, context: ErrorContext & { job?: Job } = {}) {
    super(message, context);
    this.job = context.job;
  }
}

/** A waited job ended `failed` or `cancelled`; its credits were refunded. */
export class JobFailedError extends ProfileArticlesError {
  override readonly name: string = 'JobFailedError';
  readonly job: Job;

  constructor(job: Job, context: ErrorContext = {}) {
    const reason = job.error ? `: ${job.error}` : '';
    super(`Job ${job.job_id} for "${job.profile_id}" ended ${job.status}${reason}`, context);
    this.job = job;
  }
}

/** A 2xx body that does not match the interface, or any body larger than 10 MiB. */
export class ResponseValidationError extends ProfileArticlesError {
  override readonly name: string = 'ResponseValidationError';
  readonly status: number;
  /** zod's issues (code, path, message), or one `invalid_json` / `too_big` issue. */
  readonly issues: readonly ResponseIssue[];

  constructor(message: string, init: ErrorContext & { status: number; issues: readonly ResponseIssue[] }) {
    super(message, init);
    this.status = init.status;
    this.issues = init.issues;
  }
}
