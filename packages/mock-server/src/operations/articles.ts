// Read, generate and update: the interface's rules on charging, jobs and idempotency.
import { isActiveStatus, type ReadResponse } from '@profile-articles/sdk/schemas';
import { fail, type Outcome, ok } from '../outcome.js';
import type { StoredOutcome } from '../rules/idempotency.js';
import type { JobKind } from '../rules/jobs.js';
import type { StoredJob } from '../rules/stored-job.js';
import { profileBehaviour } from '../rules/test-profiles.js';
import type { OperationContext } from './context.js';

const NO_ARTICLE = 'No article exists for this profile';
const ACTIVE_JOB = 'Another job is active for this profile; wait for it to finish';

function insufficient(ctx: OperationContext, price: number): Outcome {
  const balance = ctx.state.ledger.balance(ctx.account.id);
  return fail(402, `Insufficient credits: this needs ${price}, the balance is ${balance}`);
}

/** 1 credit for the current article; a missing one is 404 and free. */
export function readArticle(
  ctx: OperationContext,
  profileId: string,
  reason: 'read' | 'generate-read' = 'read',
): Outcome {
  const article = ctx.state.articles.get(profileId);
  if (!article) return fail(404, NO_ARTICLE);
  const price = ctx.account.pricing.read_credits;
  if (!ctx.state.ledger.take(ctx.account.id, price, 'charge', { reason, profileId }, ctx.now))
    return insufficient(ctx, price);
  const response: ReadResponse = { article, credits_charged: price };
  return ok(response);
}

/** A replayed job answers 202 while active and 200 once it has ended. */
function jobOutcome(job: StoredJob): Outcome {
  return ok(job, isActiveStatus(job.status) ? 202 : 200);
}

function replay(ctx: OperationContext, outcome: StoredOutcome): Outcome {
  if (outcome.kind === 'read') {
    const response: ReadResponse = {
      article: ctx.state.articles.render(outcome.seed),
      credits_charged: outcome.creditsCharged,
    };
    return ok(response);
  }
  const record = ctx.state.jobs.get(outcome.jobId);
  return record ? jobOutcome(record.job) : fail(404, 'Job not found');
}

/** Checks the key first: a replay or a mismatch answers before any rule runs. */
function withIdempotency(
  ctx: OperationContext,
  key: string,
  operation: JobKind,
  profileId: string,
  run: () => { outcome: Outcome; stored?: StoredOutcome },
): Outcome {
  const found = ctx.state.idempotency.lookup(ctx.account.id, key, operation, profileId);
  if (found.kind === 'replay') return replay(ctx, found.outcome);
  if (found.kind === 'mismatch') {
    return fail(
      409,
      `This Idempotency-Key was already used to ${found.stored.operation} "${found.stored.profileId}"; use a new key`,
    );
  }
  const { outcome, stored } = run();
  if (stored)
    ctx.state.idempotency.remember(ctx.account.id, key, { operation, profileId, outcome: stored }, ctx.now);
  return outcome;
}

function startJob(
  ctx: OperationContext,
  profileId: string,
  kind: JobKind,
  idempotencyKey: string,
): { outcome: Outcome; stored?: StoredOutcome } {
  const { state, account, now } = ctx;
  if (state.jobs.activeFor(profileId)) return { outcome: fail(409, ACTIVE_JOB) };
  const price = account.pricing.generation_credits;
  const record = state.jobs.start({
    accountId: account.id,
    profileId,
    kind,
    idempotencyKey,
    credits: price,
    queuedTimeoutMs: account.pricing.queued_timeout_minutes * 60_000,
    at: now,
  });
  if (!record) return { outcome: insufficient(ctx, price) };
  return { outcome: ok(record.job, 202), stored: { kind: 'job', jobId: record.job.job_id } };
}

/** The existing article for 1 credit, or a new generation job with 100 credits reserved. */
export function generateArticle(ctx: OperationContext, profileId: string, key: string): Outcome {
  return withIdempotency(ctx, key, 'generate', profileId, () => {
    const seed = ctx.state.articles.seed(profileId);
    if (seed) {
      const outcome = readArticle(ctx, profileId, 'generate-read');
      if (outcome.status !== 200) return { outcome };
      const { credits_charged } = outcome.body as ReadResponse;
      return { outcome, stored: { kind: 'read', seed, creditsCharged: credits_charged } };
    }
    if (profileBehaviour(profileId) === 'notfound') return { outcome: fail(404, 'Profile not found') };
    return startJob(ctx, profileId, 'generate', key);
  });
}

/** A new research run for an existing article, for 100 credits. */
export function updateArticle(ctx: OperationContext, profileId: string, key: string): Outcome {
  return withIdempotency(ctx, key, 'update', profileId, () => {
    if (!ctx.state.articles.seed(profileId)) return { outcome: fail(404, NO_ARTICLE) };
    return startJob(ctx, profileId, 'update', key);
  });
}
