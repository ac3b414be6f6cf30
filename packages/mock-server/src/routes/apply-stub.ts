// Applies the outcome stub a request meets (rules/request/stubs.ts picks it) around the API
// handlers, by the mock's own rules: a stubbed status answers before any effect, a stubbed job
// is started (and reserved) as any other and then fails or stalls by its plan, a lost answer or
// a reset after takes the full effect first. The step comes after authentication and the rate
// limit (it authorises the request itself when some stub may match, and the API's auth step
// then takes its word) and before the fault rules, which a stubbed request does not draw. A
// key its account used before is answered before any rule, so no stubbed status or job meets it.
import type { Context, Hono, MiddlewareHandler, Next } from 'hono';
import type { LiveState } from '../data/live-state.js';
import { shapeBody } from '../http/body-shape.js';
import { requestHeader } from '../http/request-header.js';
import { respond } from '../http/respond.js';
import { fail } from '../operations/outcome.js';
import { FAULT_ROUTES, type FaultRoute } from '../rules/request/faults.js';
import {
  contractText,
  keyedOperation,
  profileInBody,
  type StubOutcome,
  type StubProbe,
  stubProbeProfile,
} from '../rules/request/stubs.js';
import { type ApiEnv, authorize, honoPath } from './api.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answer a client gets when a stub loses it: the request took effect. */
const LOST_DETAIL = 'Internal server error (stubbed: the request took effect, its answer was lost)';

/** The request as the stubs see it: its route, the profile it names and its Idempotency-Key. */
async function probeOf(c: Context<ApiEnv>, route: FaultRoute, live: LiveState): Promise<StubProbe> {
  // Read only for a generate, whose profile is in its body (Hono keeps the text for the route).
  const body = profileInBody(route) ? (c.env.body ?? (await c.req.text().catch(() => undefined))) : undefined;
  return {
    route,
    profileId: stubProbeProfile(route, {
      param: (name) => c.req.param(name),
      body,
      jobProfile: (jobId) => live.state.jobs.get(jobId.toLowerCase())?.job.profile_id,
    }),
    idempotencyKey: requestHeader(c, 'idempotency-key'),
  };
}

/** Replaces the answer: Hono's setter would otherwise copy the real answer's headers over. */
function replaceAnswer(c: Context<ApiEnv>, response: Response): void {
  c.res = undefined;
  c.res = response;
}

async function applyOutcome(
  c: Context<ApiEnv>,
  next: Next,
  outcome: StubOutcome,
  live: LiveState,
): Promise<Response | undefined> {
  const { requestId } = c.env;
  if ('status' in outcome) {
    const headers: Record<string, string> = {};
    if (outcome.status === 429) headers['retry-after'] = String(outcome.retryAfterSeconds ?? 1);
    if (outcome.status === 401) headers['www-authenticate'] = 'Bearer';
    const detail = outcome.detail ?? contractText(outcome.status);
    return respond(
      fail(outcome.status, detail, Object.keys(headers).length ? headers : undefined),
      requestId,
    );
  }
  if ('job' in outcome) {
    const ctx = c.get('ctx');
    const { job } = outcome;
    const plan =
      job === 'fails'
        ? { failure: outcome.error ?? 'Research run failed (stubbed); the credits were refunded' }
        : job === 'stuck'
          ? {
              // Queued as long as the queue timeout: the job's own rule then cancels it, refunded.
              times: {
                queuedMs: ctx.account.pricing.queued_timeout_minutes * 60_000,
                runningMs: live.state.config.jobs.runningMs,
              },
            }
          : { times: { queuedMs: job.queuedMs, runningMs: job.runningMs } };
    c.set('ctx', { ...ctx, job: plan });
    await next();
    return;
  }
  if ('latencyMs' in outcome) {
    await sleep(outcome.latencyMs);
    await next();
    return;
  }
  if ('reset' in outcome) {
    // Response.error(): the node adapter destroys the socket, msw answers its network error.
    if (outcome.reset === 'before') return Response.error();
    await next();
    replaceAnswer(c, Response.error());
    return;
  }
  await next();
  if ('lost' in outcome) {
    replaceAnswer(c, respond(fail(500, LOST_DETAIL), requestId));
    return;
  }
  const shaped = await shapeBody(c.res, outcome, c.req.raw.signal);
  c.set('sentBody', shaped.text);
  replaceAnswer(c, shaped.response);
}

function stubStep(route: FaultRoute, live: LiveState): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const { stubs } = live.state;
    if (stubs.active === 0) return next();
    const probe = await probeOf(c, route, live);
    if (!stubs.mayMatch(probe)) return next();
    // A 401 stays a 401, and a stubbed request counts against the rate limit, refused by it first.
    const caller = authorize(live, requestHeader(c, 'authorization'));
    if (!caller.ok) return respond(caller.outcome, c.env.requestId);
    c.set('ctx', caller.ctx);
    const accountId = caller.ctx.account.id;
    const operation = keyedOperation(route);
    const key = probe.idempotencyKey;
    const profileId = operation && key !== undefined ? probe.profileId() : undefined;
    if (operation && key !== undefined && profileId !== undefined) {
      probe.keyAnswers = live.state.idempotency.lookup(accountId, key, operation, profileId).kind !== 'new';
    }
    const stub = stubs.take(probe, accountId);
    if (!stub) return next();
    c.set('stubId', stub.id);
    return applyOutcome(c, next, stub.outcome, live);
  };
}

/** Registers the stub step in front of every API route of `app` (before the fault step). */
export function registerStubs(app: Hono<ApiEnv>, live: LiveState): void {
  for (const route of FAULT_ROUTES) {
    const [method, template] = route.split(' ') as [string, string];
    app.on(method, honoPath(template), stubStep(route, live));
  }
}
