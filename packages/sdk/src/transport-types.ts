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
}

export interface Transport {
  request<T>(spec: RequestSpec<T>, callOptions?: RequestOptions): Promise<T>;
}
