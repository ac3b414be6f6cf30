// Requests the contract refuses that a server ignoring the rule would charge for: generate
// bodies it must answer with 422, each of which would start a generation, and an update of
// a profile with no article, which would start an update. Free on a server that keeps the
// rule; each runs only when --spend covers a generation, and what it cost is measured.
import { randomUUID } from 'node:crypto';
import { IdempotencyKeySchema, ProfileIdSchema } from '@profile-articles/sdk/schemas';
import { call, expectAnswer, type RunContext, unusedSlug } from '../context.js';
import { tooLong } from '../contract.js';
import { paidProbe } from '../paid-probe.js';
import type { ProbeRequest } from '../probe.js';

const LONG_KEY = tooLong(IdempotencyKeySchema);
const LONG_PROFILE = tooLong(ProfileIdSchema);
const WHAT = 'on a server that ignored this rule, it';

type Generate = Pick<ProbeRequest, 'body' | 'idempotencyKey'>;

const PROBES: Array<[id: string, name: string, make: (slug: string) => Generate]> = [
  [
    'generate.no-idempotency-key-422',
    '422 without an Idempotency-Key',
    (slug) => ({ body: { profile_id: slug } }),
  ],
  [
    'generate.long-idempotency-key-422',
    `422 for a ${LONG_KEY.length}-character Idempotency-Key`,
    (slug) => ({ body: { profile_id: slug }, idempotencyKey: LONG_KEY }),
  ],
  [
    'generate.extra-property-422',
    '422 for a body with an extra property',
    (slug) => ({ body: { profile_id: slug, verify_extra: true }, idempotencyKey: randomUUID() }),
  ],
  [
    'generate.long-profile-id-422',
    `422 for a ${LONG_PROFILE.length}-character profile_id`,
    () => ({ body: { profile_id: LONG_PROFILE }, idempotencyKey: randomUUID() }),
  ],
];

async function checkUpdateWithoutArticle(ctx: RunContext) {
  const base = {
    endpoint: 'updateArticle',
    id: 'update.no-article-404',
    name: '404 for an update of a profile with no article',
  } as const;
  const params = { profile_id: unusedSlug('verify-missing') };
  const measured = await paidProbe(ctx, { ...base, costs: 'generation', what: WHAT }, () =>
    call(ctx, 'updateArticle', { params, idempotencyKey: randomUUID() }),
  );
  if (measured) expectAnswer(ctx, base.endpoint, base.id, base.name, measured.result, 404);
}

export async function checkGuardedValidation(ctx: RunContext): Promise<void> {
  for (const [id, name, make] of PROBES) {
    const request = make(unusedSlug('verify-probe'));
    const probe = { endpoint: 'generateArticle', id, name, costs: 'generation', what: WHAT } as const;
    const measured = await paidProbe(ctx, probe, () => call(ctx, 'generateArticle', request));
    if (measured) expectAnswer(ctx, 'generateArticle', id, name, measured.result, 422);
  }
  await checkUpdateWithoutArticle(ctx);
}
