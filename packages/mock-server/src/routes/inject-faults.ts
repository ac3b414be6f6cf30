// Applies the fault a request draws (rules/faults.ts) around the API handlers. The
// outcomes are transport-free: a reset is `Response.error()`, which the node adapter turns
// into a destroyed socket and msw into a network error.
import type { Hono, MiddlewareHandler } from 'hono';
import type { LiveState } from '../data/live-state.js';
import { shapeBody } from '../http/body-shape.js';
import { requestHeader } from '../http/request-header.js';
import { respond } from '../http/respond.js';
import { fail } from '../operations/outcome.js';
import { FAULT_ROUTES, type FaultRoute } from '../rules/request/faults.js';
import { type ApiEnv, honoPath } from './api.js';

/** A trickle rule's rate when it names none. */
const DEFAULT_BYTES_PER_SECOND = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function injectFault(route: FaultRoute, live: LiveState): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    // A request a stub answered (routes/apply-stub.ts) meets no fault: its outcome is the stub's.
    if (c.get('stubId') !== undefined) return next();
    const rule = live.state.faults.draw(route);
    if (!rule) return next();
    switch (rule.kind) {
      case 'fail':
        return respond(
          fail(500, 'Internal server error (injected fault: nothing was done)'),
          c.env.requestId,
        );
      case 'rate-limit': {
        const account = live.state.accounts.byAuthorization(requestHeader(c, 'authorization'));
        if (account) live.state.refusals.count(account.id, 'fault');
        const seconds = String(rule.retryAfterSeconds);
        return respond(
          fail(429, `Rate limited (injected fault); retry in ${seconds} s`, { 'retry-after': seconds }),
          c.env.requestId,
        );
      }
      case 'latency':
        await sleep(live.state.faults.latencyOf(rule));
        return next();
      case 'trickle':
      case 'malformed':
      case 'empty': {
        await next();
        const shape =
          rule.kind === 'trickle'
            ? { body: rule.kind, bytesPerSecond: rule.bytesPerSecond ?? DEFAULT_BYTES_PER_SECOND }
            : { body: rule.kind };
        const shaped = await shapeBody(c.res, shape, c.req.raw.signal);
        c.set('sentBody', shaped.text);
        c.res = undefined;
        c.res = shaped.response;
        return;
      }
      case 'lost':
      case 'reset':
        await next();
        // Cleared first: Hono's setter would otherwise copy the real answer's headers over.
        c.res = undefined;
        c.res =
          rule.kind === 'reset'
            ? Response.error()
            : respond(
                fail(
                  500,
                  'Internal server error (injected fault: the request took effect, its answer was lost)',
                ),
                c.env.requestId,
              );
        return;
    }
  };
}

/** Registers the fault step in front of every API route of `app`. */
export function registerFaults(app: Hono<ApiEnv>, live: LiveState): void {
  for (const route of FAULT_ROUTES) {
    const [method, template] = route.split(' ') as [string, string];
    app.on(method, honoPath(template), injectFault(route, live));
  }
}
