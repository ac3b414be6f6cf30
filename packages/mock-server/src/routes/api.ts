// The API's routes: HTTP in, operations out, one route per contract-table entry. Order of checks:
// auth (401), rate limit (429), then the request's own validity (422), then the operation's rules.
import { ENDPOINTS, type EndpointName } from '@profile-articles/sdk/internal';
import { Hono } from 'hono';
import type { LiveState } from '../data/live-state.js';
import { type EndpointArgs, readEndpointArgs } from '../http/endpoint-input.js';
import type { EndpointOutcome } from '../http/endpoint-outcome.js';
import { requestHeader } from '../http/request-header.js';
import { respond } from '../http/respond.js';
import type { GuardEnv } from '../http/transport.js';
import { generateArticle, readArticle, updateArticle } from '../operations/articles.js';
import type { OperationContext } from '../operations/context.js';
import { createCheckout, getBalance } from '../operations/credits.js';
import { getJob } from '../operations/jobs.js';
import { type Failure, fail } from '../operations/outcome.js';
import type { Account } from '../rules/money/accounts.js';

/**
 * `ctx`: set by the auth middleware for every request that passed it (or by the stub step,
 * which authorises first when a stub may match). `stubId`: the stub that answered, if one did.
 * `sentBody`: the body text a stub or fault shaped, for the journal (a trickle is not read twice).
 */
export type ApiEnv = {
  Variables: { ctx: OperationContext; stubId?: string; sentBody?: string };
} & GuardEnv;

type Operation<N extends EndpointName> = (
  ctx: OperationContext,
  args: EndpointArgs<(typeof ENDPOINTS)[N]>,
  /** The request's origin, parsed only by the one operation that needs it. */
  origin: () => string,
) => EndpointOutcome<N>;

/**
 * Every table entry's operation: a missing one does not compile, nor does one that answers a
 * status or a body its table entry does not list.
 */
const OPERATIONS: { [N in EndpointName]: Operation<N> } = {
  readArticle: (ctx, { params }) => readArticle(ctx, params.profile_id),
  generateArticle: (ctx, { body, headers }) =>
    generateArticle(ctx, body.profile_id, headers['idempotency-key']),
  updateArticle: (ctx, { params, headers }) =>
    updateArticle(ctx, params.profile_id, headers['idempotency-key']),
  getJob: (ctx, { params }) => getJob(ctx, params.job_id.toLowerCase()),
  getBalance: (ctx) => getBalance(ctx),
  createCheckout: (ctx, { body }, origin) => createCheckout(ctx, body.credits, origin()),
};

/** A table path as Hono writes it: `{name}` becomes `:name`. */
export const honoPath = (template: string) => template.replace(/\{(\w+)\}/g, ':$1');

/** Runs table entry `name`'s operation on its checked inputs. */
export function runOperation<N extends EndpointName>(
  name: N,
  ctx: OperationContext,
  args: EndpointArgs<(typeof ENDPOINTS)[N]>,
  origin: () => string,
): EndpointOutcome<N> {
  const operation: Operation<N> = OPERATIONS[name];
  return operation(ctx, args, origin);
}

/**
 * Who is asking, and may they: the caller's context, or the 401 (no or unknown key) or 429
 * (the account's window is full) that refuses them. A request that passes takes a slot of
 * its account's rate window.
 */
export function authorize(
  live: LiveState,
  authorization: string | undefined,
): { ok: true; ctx: OperationContext } | { ok: false; outcome: Failure<401 | 429> } {
  const { state } = live;
  const account: Account | undefined = state.accounts.byAuthorization(authorization);
  if (!account) {
    return { ok: false, outcome: fail(401, 'Missing or invalid API key', { 'www-authenticate': 'Bearer' }) };
  }
  const now = live.now();
  const decision = state.rateLimiter.take(account.id, account.pricing.requests_per_minute, now);
  if (!decision.allowed) {
    state.refusals.count(account.id, 'rate-limit');
    const seconds = String(decision.retryAfterSeconds);
    return {
      ok: false,
      outcome: fail(
        429,
        `Rate limit of ${account.pricing.requests_per_minute} requests per minute exceeded; retry in ${seconds} s`,
        { 'retry-after': seconds },
      ),
    };
  }
  return { ok: true, ctx: { state, account, now } };
}

/** Registers one table entry: its method and path, its inputs checked, then its operation. */
function route<N extends EndpointName>(api: Hono<ApiEnv>, name: N): void {
  const endpoint = ENDPOINTS[name];
  api.on(endpoint.method, honoPath(endpoint.path), async (c) => {
    const input = await readEndpointArgs(c, endpoint);
    if (!input.ok) return respond(input.outcome, c.env.requestId);
    const outcome = runOperation(name, c.get('ctx'), input.args, () => new URL(c.req.url).origin);
    return respond(outcome, c.env.requestId);
  });
}

export function createApiRoutes(live: LiveState): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.use('*', async (c, next) => {
    // The stub step authorised this request already (and took its slot of the rate window).
    if (c.get('ctx')) return next();
    const caller = authorize(live, requestHeader(c, 'authorization'));
    if (!caller.ok) return respond(caller.outcome, c.env.requestId);
    c.set('ctx', caller.ctx);
    await next();
  });

  for (const name of Object.keys(ENDPOINTS) as EndpointName[]) route(api, name);

  return api;
}
