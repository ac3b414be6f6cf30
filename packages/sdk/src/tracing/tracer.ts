// What hook.ts and the chunk it loads (spans.ts) share: the key under which a wait hands its
// span to its requests, and the shape of what the chunk gives a client.

import type { NormalizedOptions, RequestOptions } from '../core/option-types.js';
import type { Transport } from '../core/transport-types.js';

type Request = Transport['request'];
type Wait = Transport['wait'];

/**
 * Under this key a wait's options carry its span to the requests the wait makes, which are its
 * children: parented explicitly, so that no context manager is needed. Not in any public type.
 */
export const PARENT = Symbol();

/** Options that may carry a wait's span (see PARENT). */
export type Parented = { [PARENT]?: unknown };

/** The parent span `opts` carry, as the options of a request of the wait. */
export const parented = (opts: object, signal?: AbortSignal): RequestOptions & Parented =>
  // An undefined signal is no signal (anySignal skips it).
  ({ signal, [PARENT]: (opts as Parented)[PARENT] }) as RequestOptions & Parented;

/** What spans.ts gives a client once the API is found: its calls and waits, each in a span. */
export interface Tracer {
  request: Request;
  wait: Wait;
}

/** What the spans need from the client: its options, the redactor's text and the request id it shows. */
export type TraceArgs = [
  options: Pick<NormalizedOptions, 'tracing' | 'baseUrl'>,
  redact: (text: string) => string,
  requestIdOf: Transport['requestIdOf'],
];
