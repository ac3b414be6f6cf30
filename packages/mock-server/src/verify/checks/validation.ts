// Free refusals: requests the contract says are wrong or point at nothing, answered with
// 4xx and `{detail}`. A server that ignored any of these would still charge nothing; they
// are measured as a group all the same, and anything they cost is counted and fails.
// (The update of a profile with no article would start an update: it is in guarded.ts.)
import { randomUUID } from 'node:crypto';
import { ProfileIdSchema } from '@profile-articles/sdk/schemas';
import { call, expectAnswer, type RunContext } from '../context.js';
import { listedServerFailures, successStatuses, tooLong } from '../contract.js';
import { freeChecks } from '../paid-probe.js';

const TOO_LONG = tooLong(ProfileIdSchema);

async function checkJobs(ctx: RunContext) {
  const notUuid = await call(ctx, 'getJob', { params: { job_id: 'not-a-uuid' } });
  expectAnswer(ctx, 'getJob', 'jobs.non-uuid-422', '422 for a job id that is not a UUID', notUuid, 422);
  const missing = await call(ctx, 'getJob', { params: { job_id: randomUUID() } });
  expectAnswer(ctx, 'getJob', 'jobs.missing-404', '404 for a job that does not exist', missing, 404);
}

async function checkArticles(ctx: RunContext) {
  const long = await call(ctx, 'readArticle', { params: { profile_id: TOO_LONG } });
  expectAnswer(
    ctx,
    'readArticle',
    'articles.long-profile-id-422',
    `422 for a ${TOO_LONG.length}-character profile_id`,
    long,
    422,
  );
}

async function checkCheckout(ctx: RunContext) {
  const checkout = (credits: unknown) => call(ctx, 'createCheckout', { body: { credits } });
  const { min_purchase_credits: min, max_purchase_credits: max } = ctx.pricing;
  const wrongType = await checkout(String(min));
  expectAnswer(
    ctx,
    'createCheckout',
    'checkout.wrong-type-422',
    '422 for credits given as a string',
    wrongType,
    422,
  );
  const above = await checkout(max + 1);
  expectAnswer(
    ctx,
    'createCheckout',
    'checkout.above-range-400',
    `400 for ${max + 1} credits (above the range)`,
    above,
    400,
  );
  if (min > 1) {
    const below = await checkout(min - 1);
    expectAnswer(
      ctx,
      'createCheckout',
      'checkout.below-range-400',
      `400 for ${min - 1} credits (below the range)`,
      below,
      400,
    );
  }
  // Nothing is paid: the session's url is never opened.
  const inRange = await checkout(min);
  expectAnswer(
    ctx,
    'createCheckout',
    'checkout.in-range',
    `200 with session_id and url (or 502/503) for ${min} credits`,
    inRange,
    [...successStatuses('createCheckout'), ...listedServerFailures('createCheckout')],
  );
}

export async function checkValidation(ctx: RunContext): Promise<void> {
  await freeChecks(ctx, 'validation', async () => {
    await checkJobs(ctx);
    await checkArticles(ctx);
    await checkCheckout(ctx);
  });
}
