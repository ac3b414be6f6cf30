// Hono types a middleware or handler as returning a Promise, but its chain awaits whatever a step
// returns. A step that answers or passes on without awaiting spares each request an async call
// (a Promise and a suspended frame), which adds up on the mock's hot path.
import type { Context, Env, MiddlewareHandler, Next } from 'hono';

type SyncStep<E extends Env> = (c: Context<E>, next: Next) => Response | ReturnType<MiddlewareHandler<E>>;

/** `handler` as the middleware Hono's types expect; it may return its Response directly. */
export const syncStep = <E extends Env>(handler: SyncStep<E>): MiddlewareHandler<E> =>
  handler as MiddlewareHandler<E>;
