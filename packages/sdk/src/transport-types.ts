// The shapes the resources hand to the transport.

import type { RequestOptions } from './options.js';
import type { RetryPolicy } from './retry.js';
import type { HttpMethod } from './schemas/endpoints.js';

/** One reason a 2xx body does not match the interface: zod's issue, without the input it saw. */
export interface ResponseIssue {
  /** zod's issue code (`invalid_type`, `invalid_value`, …), or `invalid_json` / `too_big` for the body. */
  readonly code: string;
  /** Where in the body, such as `['job', 'status']`. */
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** What `safeParse` of a zod schema returns, without tying this module to zod's types. */
export type ParseResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: readonly ResponseIssue[] } };

export interface RequestSpec<T> {
  method: HttpMethod;
  /** Below the API prefix, already encoded. */
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  policy: RetryPolicy;
  isCheckout?: boolean;
  /** Pacing: counted in the window but never held back (the `'auto'` limit read). */
  paceExempt?: boolean;
  /** Pacing: waiters go out oldest first; a poll passes the time its job's wait began. */
  waitingSince?: number;
  /** Parses a 2xx body by the schema the contract table gives its status. */
  parse: (body: unknown, status: number) => ParseResult<T>;
}

export interface Transport {
  request<T>(spec: RequestSpec<T>, callOptions?: RequestOptions): Promise<T>;
  /** Replaces the client's API key in server data (a Job) before it goes into an error. */
  redact<T>(value: T): T;
}
