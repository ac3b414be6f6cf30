// Every error the SDK throws. All extend ProfileArticlesError, so
// `catch (e) { if (e instanceof ProfileArticlesError) … }` covers the SDK entirely.
// Each is built whole in its constructor and its fields are readonly.
// No error ever holds the request, its headers or the API key.

import type { Job } from '../schemas/job.js';
import { type ErrorContext, ProfileArticlesError } from './base-error.js';
import type { ResponseIssue } from './response-issue.js';

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

/** What a {@link SpendLimitError} says about this client's credits when it refused a call. */
export interface SpendLimitInit {
  /** The client's `spendLimit`. */
  limit: number;
  /** Credits this client has been charged, net of the refunds it has seen (`client.spent`). */
  spent: number;
  /** The worst-case prices of this client's paid calls still under way. */
  inFlight: number;
  /** The worst-case price of the refused call. */
  price: number;
}

/**
 * A paid call refused before it was sent (or a read's retry, before the retry was sent): its
 * worst-case price, added to what this client has spent and the worst cases of its calls under
 * way, would pass the client's `spendLimit`. It bounds this client's calls, not the account:
 * other clients and keys spend on their own.
 */
export class SpendLimitError extends ProfileArticlesError {
  override readonly name: string = 'SpendLimitError';
  declare readonly limit: number;
  declare readonly spent: number;
  declare readonly inFlight: number;
  declare readonly price: number;

  constructor(init: SpendLimitInit, context: ErrorContext = {}) {
    super(
      `spendLimit ${init.limit} reached: this call may cost ${init.price}, with ${init.spent} spent and ` +
        `${init.inFlight} under way; ${context.attempts ? 'the retry was not' : 'nothing was'} sent`,
      context,
    );
    Object.assign(this, { limit: init.limit, spent: init.spent, inFlight: init.inFlight, price: init.price });
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
