// A fetch that can also send a request under a time limit of its own. The SDK's node:http fetch
// (node-fetch.ts) is one. With such a fetch the attempt (attempt.ts) hands it its URL and init
// and makes no Request, AbortController or timer for the wait for headers; with any other fetch,
// a timer aborts the request's signal. On Node that saved a quarter of a call's CPU
// (docs/performance.md).

/** Where a fetch keeps its `sendWithin`; a Symbol, so no caller's fetch has it by chance. */
export const SEND_WITHIN = Symbol('sendWithin');

/**
 * What each attempt gives fetch as its init, beside the URL: the fields the SDK always sets, and
 * the call's `fetchOptions` under them. Plain data, as openai-node and stripe-node give theirs,
 * so a fetch that wraps another can spread it and add a header of its own.
 */
export interface AttemptInit extends RequestInit {
  method: string;
  /** Lower-case names, every one checked as a header can carry it (arguments.ts). */
  headers: Record<string, string>;
  /** JSON, when the call sends a body. */
  body?: string;
  redirect: 'manual';
  signal: AbortSignal | null;
}

/**
 * Sends the attempt and resolves with the answer once its headers came, or rejects with
 * TIMED_OUT (and closes the connection) when they did not come within `timeoutMs`. An abort of
 * `init.signal` rejects with its reason, before and after headers, as fetch does.
 */
export type SendWithin = (url: string, init: AttemptInit, timeoutMs: number) => Promise<Response>;

/** What a timed send or a body read rejects with when its time ran out. */
export const TIMED_OUT = Symbol('timed out');

/** The fetch's own `sendWithin`, when it has one. */
export const sendWithinOf = (fetch: typeof globalThis.fetch): SendWithin | undefined =>
  (fetch as { [SEND_WITHIN]?: SendWithin })[SEND_WITHIN];
