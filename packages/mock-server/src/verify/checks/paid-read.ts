// Reads that cost credits: an existing article (--profile) charges the read price, a
// missing one charges nothing. Judged by `credits_charged`, then by the balance.
import {
  call,
  expectAnswer,
  expectEqual,
  objectBody,
  type RunContext,
  skip,
  unusedSlug,
} from '../context.js';
import { judgeDrop, paidProbe } from '../paid-probe.js';

function read(ctx: RunContext, slug: string) {
  return call(ctx, 'readArticle', { params: { profile_id: slug } });
}

async function checkExisting(ctx: RunContext) {
  const { profile } = ctx.options;
  const base = {
    endpoint: 'readArticle',
    id: 'read.existing',
    name: 'read of --profile: 200 ReadResponse',
  } as const;
  if (!profile) return skip(ctx, base.endpoint, base.id, base.name, 'no --profile given');
  const price = ctx.pricing.read_credits;
  const measured = await paidProbe(ctx, { ...base, costs: 'read', what: 'a read' }, () => read(ctx, profile));
  if (!measured || !expectAnswer(ctx, 'readArticle', base.id, base.name, measured.result, 200)) return;
  const charged = objectBody(measured.result).credits_charged;
  expectEqual(
    ctx,
    'readArticle',
    'read.existing.credits-charged',
    'credits_charged is the read price',
    price,
    charged,
  );
  judgeDrop(
    ctx,
    'readArticle',
    'read.existing.balance',
    'the balance falls by the read price',
    price,
    measured,
  );
}

async function checkMissing(ctx: RunContext) {
  const base = {
    endpoint: 'readArticle',
    id: 'read.missing-404',
    name: '404 for a profile with no article',
  } as const;
  // Free by contract, but a server that charged for it would spend a read.
  const what = 'on a server that charged for it, it';
  const slug = unusedSlug('verify-missing');
  const measured = await paidProbe(ctx, { ...base, costs: 'read', what, ownDropRow: 0 }, () =>
    read(ctx, slug),
  );
  if (!measured) return;
  expectAnswer(ctx, 'readArticle', base.id, base.name, measured.result, 404);
  judgeDrop(ctx, 'readArticle', 'read.missing.balance', 'a missing article costs nothing', 0, measured);
}

export async function checkPaidReads(ctx: RunContext): Promise<void> {
  await checkExisting(ctx);
  await checkMissing(ctx);
}
