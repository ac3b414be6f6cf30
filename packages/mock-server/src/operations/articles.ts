// Read, generate and update: the interface's rules on charging, jobs and idempotency.
import { isActiveStatus, type Job, type ReadResponse } from '@profile-articles/sdk/schemas';
import { isUnchanging, markUnchanging } from '../rules/json-text.js';
import type { StoredOutcome } from '../rules/request/idempotency.js';
import type { JobKind } from '../rules/work/jobs.js';
import type { StoredJob } from '../rules/work/stored-job.js';
import { profileBehaviour } from '../rules/work/test-profiles.js';
import type { OperationContext } from './context.js';
import { type Failure, fail, type Outcome, ok, type Success } from './outcome.js';

const NO_ARTICLE = 'No article exists for this profile';
const ACTIVE_JOB = 'Another job is active for this profile; wait for it to finish';

/** A job's answer: 202 while it is active, 200 once it has ended. */
type JobAnswer = Success<Job, 200 | 202>;
/** What generate and update answer; a replayed generate may answer the article it read. */
type JobOutcome = JobAnswer | Failure<402 | 404 | 409>;
type GenerateOutcome = JobOutcome | Success<ReadResponse>;

function insufficient(ctx: OperationContext, price: number): Failure<402> {
  const balance = ctx.state.ledger.balance(ctx.account.id);
  return fail(402, `Insufficient credits: this needs ${price}, the balance is ${balance}`);
}

/** 1 credit for the current article; a missing one is 404 and free. */
export function readArticle(
  ctx: OperationContext,
  profileId: string,
  reason: 'read' | 'generate-read' = 'read',
): Outcome<ReadResponse, 200, 402 | 404> {
  const seed = ctx.state.articles.seed(profileId);
  if (!seed) return fail(404, NO_ARTICLE);
  const article = ctx.state.articles.render(seed);
  const price = ctx.account.pricing.read_credits;
  // The stored profile id, not the request's copy of it: the ledger keeps its last 10,000
  // entries, long enough for what they hold to reach the old generation of the heap, and every
  // string a read adds there is one more for the next full collection to reclaim.
  const meta = { reason, profileId: seed.profileId };
  if (!ctx.state.ledger.take(ctx.account.id, price, 'charge', meta, ctx.now)) return insufficient(ctx, price);
  return ok(readResponse(article, price));
}

// A read's answer per article object (the rendered article, itself unchanging) and charge,
// kept with the article: reading the same article again answers the same object, whose JSON
// text is made once (see json-text.ts).
const readResponses = new WeakMap<object, ReadResponse>();

function readResponse(article: ReadResponse['article'], price: number): ReadResponse {
  let response = readResponses.get(article);
  if (response?.credits_charged !== price) {
    response = { article, credits_charged: price };
    if (isUnchanging(article)) {
      markUnchanging(response);
      readResponses.set(article, response);
    }
  }
  return response;
}

/** A job's answer: 202 while it is active, 200 once it has ended. */
function jobOutcome(job: StoredJob): JobAnswer {
  return ok(job, isActiveStatus(job.status) ? 202 : 200);
}

function replayJob(ctx: OperationContext, jobId: string): JobOutcome {
  const record = ctx.state.jobs.get(jobId);
  return record ? jobOutcome(record.job) : fail(404, 'Job not found');
}

/** A generate's first answer again: its job as it is now, or the article version it read. */
function replayGenerate(ctx: OperationContext, outcome: StoredOutcome): GenerateOutcome {
  if (outcome.kind === 'job') return replayJob(ctx, outcome.jobId);
  return ok(readResponse(ctx.state.articles.render(outcome.seed), outcome.creditsCharged));
}

function replayUpdate(ctx: OperationContext, outcome: StoredOutcome): JobOutcome {
  // The key's lookup matched the operation, and an update only ever stores its job.
  if (outcome.kind !== 'job') throw new Error("An update's Idempotency-Key holds a read");
  return replayJob(ctx, outcome.jobId);
}

/** Checks the key first: a replay or a mismatch answers before any rule runs. */
function withIdempotency<O>(
  ctx: OperationContext,
  key: string,
  operation: JobKind,
  profileId: string,
  replay: (ctx: OperationContext, outcome: StoredOutcome) => O,
  run: () => { outcome: O; stored?: StoredOutcome },
): O | Failure<409> {
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
): { outcome: JobOutcome; stored?: StoredOutcome } {
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
    ...ctx.job,
  });
  if (!record) return { outcome: insufficient(ctx, price) };
  return { outcome: ok(record.job, 202), stored: { kind: 'job', jobId: record.job.job_id } };
}

/** The existing article for 1 credit, or a new generation job with 100 credits reserved. */
export function generateArticle(ctx: OperationContext, profileId: string, key: string): GenerateOutcome {
  return withIdempotency<GenerateOutcome>(ctx, key, 'generate', profileId, replayGenerate, () => {
    const seed = ctx.state.articles.seed(profileId);
    if (seed) {
      const outcome = readArticle(ctx, profileId, 'generate-read');
      if (outcome.status !== 200) return { outcome };
      return { outcome, stored: { kind: 'read', seed, creditsCharged: outcome.body.credits_charged } };
    }
    if (profileBehaviour(profileId) === 'notfound') return { outcome: fail(404, 'Profile not found') };
    return startJob(ctx, profileId, 'generate', key);
  });
}

/** A new research run for an existing article, for 100 credits. */
export function updateArticle(ctx: OperationContext, profileId: string, key: string): JobOutcome {
  return withIdempotency(ctx, key, 'update', profileId, replayUpdate, () => {
    if (!ctx.state.articles.seed(profileId)) return { outcome: fail(404, NO_ARTICLE) };
    return startJob(ctx, profileId, 'update', key);
  });
}
