// /api/v1: HTTP in, operations out. Order of checks: auth (401), rate limit (429),
// then the request's own validity (422), then the operation's rules.
import { CheckoutRequestSchema, JobIdSchema, ProfileRequestSchema } from '@profile-articles/sdk/schemas';
import { type Context, Hono } from 'hono';
import * as z from 'zod/mini';
import { generateArticle, readArticle, updateArticle } from '../operations/articles.js';
import type { OperationContext } from '../operations/context.js';
import { createCheckout, getBalance } from '../operations/credits.js';
import { getJob } from '../operations/jobs.js';
import { fail, invalid, type Outcome, parseInput, type ValidationIssue } from '../outcome.js';
import { type Account, bearerToken } from '../rules/accounts.js';
import type { MockState } from '../state.js';
import { identifierIssue, profileIdIssue } from './identifiers.js';
import { parseJsonBody, respond } from './respond.js';

export interface ApiDeps {
  state: () => MockState;
  now: () => number;
}

/** Set by the auth middleware for every request that passed it. */
export type ApiEnv = { Variables: { ctx: OperationContext } };

// The SDK's body schema for shape and types; the profile id's own rules are the mock's
// (identifiers.ts), which count code points.
const GenerateBodySchema = z.extend(ProfileRequestSchema, { profile_id: z.string() });

function badProfilePath(value: string): Outcome | undefined {
  const issue = profileIdIssue(['path', 'profile_id'], value);
  return issue && invalid([issue]);
}

function badJobPath(value: string): Outcome | undefined {
  const parsed = parseInput(JobIdSchema, value, 'path');
  return parsed.ok ? undefined : invalid(parsed.issues.map((i) => ({ ...i, loc: ['path', 'job_id'] })));
}

function idempotencyKey(c: Context): { key: string } | { issue: ValidationIssue } {
  const value = c.req.header('idempotency-key');
  const loc = ['header', 'idempotency-key'];
  if (value === undefined) return { issue: { loc, msg: 'Field required', type: 'missing' } };
  const issue = identifierIssue(loc, value);
  return issue ? { issue } : { key: value };
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
      state.refusals.count(account.id, 'rate-limit');
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
    return respond(badProfilePath(profileId) ?? readArticle(c.get('ctx'), profileId));
  });

  api.post('/articles', async (c) => {
    // Every problem of the request at once, as the interface's 422 array allows.
    const key = idempotencyKey(c);
    const parsed = await parseJsonBody(c, GenerateBodySchema);
    const issues: ValidationIssue[] = 'issue' in key ? [key.issue] : [];
    if (!parsed.ok) issues.push(...parsed.issues);
    else {
      const bad = profileIdIssue(['body', 'profile_id'], parsed.data.profile_id);
      if (bad) issues.push(bad);
    }
    if (!parsed.ok || issues.length || 'issue' in key) return respond(invalid(issues));
    return respond(generateArticle(c.get('ctx'), parsed.data.profile_id, key.key));
  });

  api.post('/articles/:profile_id/update', (c) => {
    const profileId = c.req.param('profile_id');
    const badPath = badProfilePath(profileId);
    if (badPath) return respond(badPath);
    const key = idempotencyKey(c);
    if ('issue' in key) return respond(invalid([key.issue]));
    return respond(updateArticle(c.get('ctx'), profileId, key.key));
  });

  api.get('/jobs/:job_id', (c) => {
    const jobId = c.req.param('job_id');
    return respond(badJobPath(jobId) ?? getJob(c.get('ctx'), jobId.toLowerCase()));
  });

  api.get('/credits', (c) => respond(getBalance(c.get('ctx'))));

  api.post('/credits/checkout', async (c) => {
    const parsed = await parseJsonBody(c, CheckoutRequestSchema);
    if (!parsed.ok) return respond(invalid(parsed.issues));
    return respond(createCheckout(c.get('ctx'), parsed.data.credits, new URL(c.req.url).origin));
  });

  return api;
}
