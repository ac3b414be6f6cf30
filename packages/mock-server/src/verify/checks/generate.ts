// Paid: generate --generate-profile, poll it to the end, replay its key (the same job, no
// second charge), reuse the key for another profile (409), then update it, each probe
// only when --spend covers what it could cost at worst.
import { randomUUID } from 'node:crypto';
import {
  call,
  expectAnswer,
  expectEqual,
  objectBody,
  type RunContext,
  skip,
  unusedSlug,
} from '../context.js';
import { successStatuses } from '../contract.js';
import { judgeDrop, paidProbe } from '../paid-probe.js';
import type { Answer } from '../probe.js';
import { pollToTerminal } from './poll.js';

function generate(ctx: RunContext, slug: string, key: string) {
  const body = { profile_id: slug };
  return call(ctx, 'generateArticle', { body, idempotencyKey: key });
}

async function checkReplay(
  ctx: RunContext,
  slug: string,
  key: string,
  first: Answer,
  articleExists: boolean,
) {
  const id = 'generate.replay';
  const name = 'replaying the key answers 200 with the same operation';
  // Ignoring the key, a server would read the new article, or generate again if there is none.
  const costs = articleExists ? 'read' : 'generation';
  const what = 'on a server that ignored the key, a replay';
  const measured = await paidProbe(
    ctx,
    { endpoint: 'generateArticle', id, name, costs, what, newCharge: false, ownDropRow: 0 },
    () => generate(ctx, slug, key),
  );
  if (!measured || !expectAnswer(ctx, 'generateArticle', id, name, measured.result, 200)) return;
  const firstJob = objectBody(first).job_id;
  if (firstJob !== undefined) {
    const replayJob = objectBody(measured.result).job_id;
    expectEqual(
      ctx,
      'generateArticle',
      `${id}.same-job`,
      'the replay names the same job',
      firstJob,
      replayJob,
    );
  }
  judgeDrop(ctx, 'generateArticle', `${id}.balance`, 'the replay charges nothing', 0, measured);
}

async function checkKeyReuse(ctx: RunContext, slug: string, key: string) {
  const { profile } = ctx.options;
  // Another profile with an article costs a read at worst; an unknown one, a generation.
  const other = profile && profile !== slug ? profile : unusedSlug('verify-other');
  const costs = other === profile ? 'read' : 'generation';
  const base = {
    endpoint: 'generateArticle',
    id: 'generate.key-reuse-409',
    name: '409 for the key with another profile',
  } as const;
  const what = 'on a server that ignored the key, it';
  const measured = await paidProbe(ctx, { ...base, costs, what, ownDropRow: 0 }, () =>
    generate(ctx, other, key),
  );
  if (!measured) return;
  expectAnswer(ctx, 'generateArticle', base.id, base.name, measured.result, 409);
  judgeDrop(
    ctx,
    'generateArticle',
    'generate.key-reuse.balance',
    'the refused reuse charges nothing',
    0,
    measured,
  );
}

async function checkUpdate(ctx: RunContext, slug: string) {
  const price = ctx.pricing.generation_credits;
  const base = {
    endpoint: 'updateArticle',
    id: 'update.start',
    name: 'update of --generate-profile: 202 Job',
  } as const;
  const measured = await paidProbe(ctx, { ...base, costs: 'generation', what: 'an update' }, () =>
    call(ctx, 'updateArticle', { params: { profile_id: slug }, idempotencyKey: randomUUID() }),
  );
  if (!measured || !expectAnswer(ctx, 'updateArticle', base.id, base.name, measured.result, 202)) return;
  const body = objectBody(measured.result);
  // Pricing names one price for starting work; the contract's table gives update the same 100.
  expectEqual(
    ctx,
    'updateArticle',
    'update.credits-charged',
    'credits_charged is the generation price',
    price,
    body.credits_charged,
  );
  judgeDrop(ctx, 'updateArticle', 'update.balance', 'the balance falls by the price', price, measured);
  await pollToTerminal(ctx, String(body.job_id), 'update', measured);
}

export async function checkGenerate(ctx: RunContext): Promise<void> {
  const slug = ctx.options.generateProfile;
  const price = ctx.pricing.generation_credits;
  const base = {
    endpoint: 'generateArticle',
    id: 'generate.start',
    name: 'generate: 202 Job, or 200 ReadResponse if it exists',
  } as const;
  if (!slug) {
    skip(ctx, base.endpoint, base.id, base.name, 'no --generate-profile given');
    return skip(
      ctx,
      'updateArticle',
      'update.start',
      'update of --generate-profile',
      'no --generate-profile given',
    );
  }
  const key = `verify-${randomUUID()}`;
  const measured = await paidProbe(ctx, { ...base, costs: 'generation', what: 'a generation' }, () =>
    generate(ctx, slug, key),
  );
  if (!measured)
    return skip(
      ctx,
      'updateArticle',
      'update.start',
      'update of --generate-profile',
      'the generation did not run',
    );
  if (
    !expectAnswer(
      ctx,
      'generateArticle',
      base.id,
      base.name,
      measured.result,
      successStatuses('generateArticle'),
    )
  )
    return;
  const body = objectBody(measured.result);
  const isJob = 'job_id' in body;
  const expected = isJob ? price : ctx.pricing.read_credits;
  expectEqual(
    ctx,
    'generateArticle',
    'generate.credits-charged',
    'credits_charged is the price',
    expected,
    body.credits_charged,
  );
  judgeDrop(ctx, 'generateArticle', 'generate.balance', 'the balance falls by the price', expected, measured);
  const job = isJob ? await pollToTerminal(ctx, String(body.job_id), 'generate', measured) : undefined;
  const articleExists = !isJob || job?.status === 'succeeded';
  await checkReplay(ctx, slug, key, measured.result, articleExists);
  await checkKeyReuse(ctx, slug, key);
  if (articleExists) await checkUpdate(ctx, slug);
  else
    skip(
      ctx,
      'updateArticle',
      'update.start',
      'update of --generate-profile',
      'the generation did not succeed',
    );
}
