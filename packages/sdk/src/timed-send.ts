// A fetch that can also send a Request under a time limit of its own. The SDK's node:http fetch
// (node-fetch.ts) is one. ky stays the layer that builds the request; with such a fetch the
// attempt hands ky's Request to it from ky's `beforeRequest` hook (which ky documents as
// answering a Response in place of its own fetch), so ky skips what it does only for its own
// retries and timeout: a clone of the Request with another AbortSignal, and a timeout race.
// The SDK retries by itself (ky's `retry` is 0) and the transport bounds its own wait, so
// nothing is lost; on Node that was a quarter of a call's CPU (docs/performance.md).

/** Where a fetch keeps its `sendWithin`; a Symbol, so no caller's fetch has it by chance. */
export const SEND_WITHIN = Symbol('sendWithin');

/**
 * Sends `request` and resolves with the answer once its headers came, or rejects with
 * TIMED_OUT (and closes the connection) when they did not come within `timeoutMs`. An abort of
 * `request.signal` rejects with its reason, before and after headers, as fetch does.
 */
export type SendWithin = (request: Request, timeoutMs: number) => Promise<Response>;

/** What a timed send or a body read rejects with when its time ran out. */
export const TIMED_OUT = Symbol('timed out');

/** The fetch's own `sendWithin`, when it has one. */
export const sendWithinOf = (fetch: typeof globalThis.fetch): SendWithin | undefined =>
  (fetch as { [SEND_WITHIN]?: SendWithin })[SEND_WITHIN];
