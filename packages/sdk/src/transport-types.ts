// The shapes the resources hand to the transport.
import type { RequestOptions } from './options.js';
import type { RetryPolicy } from './retry.js';

/** What `safeParse` of a zod schema returns, without tying this module to zod's types. */
export type ParseResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: readonly unknown[] } };

export interface RequestSpec<T> {
  method: 'GET' | 'POST';
  /** Below `/api/v1`, already encoded. */
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  policy: RetryPolicy;
  isCheckout?: boolean;
  parse: (body: unknown) => ParseResult<T>;
  /** Pacing: counted in the window but never held back (the `'auto'` limit read). */
  paceExempt?: boolean;
  /** Pacing: waiters go out oldest first; a poll passes the time its job's wait began. */
  waitingSince?: number;
}

export interface Transport {
  request<T>(spec: RequestSpec<T>, callOptions?: RequestOptions): Promise<T>;
}
