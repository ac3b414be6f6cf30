// /api/v1: HTTP in, operations out. Order of checks: auth (401), rate limit (429),
// then the request's own validity (422), then the operation's rules.
import {
  CheckoutRequestSchema,
  IdempotencyKeySchema,
  JobIdSchema,
  ProfileIdSchema,
  ProfileRequestSchema,
} from '@profile-articles/sdk/schemas';
import { type Context, Hono } from 'hono';
import { generateArticle, readArticle, updateArticle } from '../operations/articles.js';
import type { OperationContext } from '../operations/context.js';
import { createCheckout, getBalance } from '../operations/credits.js';
import { getJob } from '../operations/jobs.js';
import {
  fail,
  invalid,
  issuesFromZod,
  JSON_INVALID,
  type Outcome,
  type ValidationIssue,
} from '../outcome.js';
import { type Account, bearerToken } from '../rules/accounts.js';
import type { MockState } from '../state.js';
import { readJsonBody, respond } from './respond.js';

export interface ApiDeps {
  state: () => MockState;
  now: () => number;
}

/** Set by the auth middleware for every request that passed it. */
export type ApiEnv = { Variables: { ctx: OperationContext } };

function checkPath(
  name: string,
  value: string,
  schema: typeof ProfileIdSchema | typeof JobIdSchema,
): Outcome | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? undefined
    : invalid(issuesFromZod('path', parsed.error.issues).map((i) => ({ ...i, loc: ['path', name] })));
}

function idempotencyKey(c: Context): { key: string } | { issue: ValidationIssue } {
  const value = c.req.header('idempotency-key');
  const parsed = IdempotencyKeySchema.safeParse(value);
  if (parsed.success) return { key: parsed.data };
  const loc = ['header', 'idempotency-key'];
  return {
    issue:
      value === undefined
        ? { loc, msg: 'Field required', type: 'missing' }
        : { loc, msg: 'Must be 1 to 200 characters', type: 'string_length' },
  };
}

export function createApiRoutes(deps: ApiDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();

  api.use('*', async (c, next) => {
    const state = deps.state();
    const key = bearerToken(c.req.header('authorization'));
    const account: Account | undefined = key === undefined ? undefined : state.accounts.byApiKey(key);
    if (!account) {
      return respond(fail(401, 'Missing or invalid API key', { 'www-authenticate': 'Bearer' }));
    }
    const now = deps.now();
    const decision = state.rateLimiter.take(account.id, account.pricing.requests_per_minute, now);
    if (!decision.allowed) {
      const seconds = String(decision.retryAfterSeconds);
      return respond(
        fail(
          429,
          `Rate limit of ${account.pricing.requests_per_minute} requests per minute exceeded; retry in ${seconds} s`,
          { 'retry-after': seconds },
        ),
      );
    }
    c.set('ctx', { state, account, now });
    await next();
  });

  api.get('/articles/:profile_id', (c) => {
    const profileId = c.req.param('profile_id');
    return respond(
      checkPath('profile_id', profileId, ProfileIdSchema) ?? readArticle(c.get('ctx'), profileId),
    );
  });

  api.post('/articles', async (c) => {
    // Every problem of the request at once, as the interface's 422 array allows.
    const key = idempotencyKey(c);
    const body = await readJsonBody(c);
    const parsed = body.ok ? ProfileRequestSchema.safeParse(body.value) : undefined;
    const issues: ValidationIssue[] = 'issue' in key ? [key.issue] : [];
    if (!parsed) issues.push(JSON_INVALID);
    else if (!parsed.success) issues.push(...issuesFromZod('body', parsed.error.issues));
    if (!parsed?.success || 'issue' in key) return respond(invalid(issues));
    return respond(generateArticle(c.get('ctx'), parsed.data.profile_id, key.key));
  });

  api.post('/articles/:profile_id/update', (c) => {
    const profileId = c.req.param('profile_id');
    const badPath = checkPath('profile_id', profileId, ProfileIdSchema);
    if (badPath) return respond(badPath);
    const key = idempotencyKey(c);
    if ('issue' in key) return respond(invalid([key.issue]));
    return respond(updateArticle(c.get('ctx'), profileId, key.key));
  });

  api.get('/jobs/:job_id', (c) => {
    const jobId = c.req.param('job_id');
    return respond(checkPath('job_id', jobId, JobIdSchema) ?? getJob(c.get('ctx'), jobId.toLowerCase()));
  });

  api.get('/credits', (c) => respond(getBalance(c.get('ctx'))));

  api.post('/credits/checkout', async (c) => {
    const body = await readJsonBody(c);
    if (!body.ok) return respond(invalid([JSON_INVALID]));
    const parsed = CheckoutRequestSchema.safeParse(body.value);
    if (!parsed.success) return respond(invalid(issuesFromZod('body', parsed.error.issues)));
    return respond(createCheckout(c.get('ctx'), parsed.data.credits, new URL(c.req.url).origin));
  });

  return api;
}
