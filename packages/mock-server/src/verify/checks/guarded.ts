// Generate requests the contract refuses with 422. Free on a server that validates; on one
// that ignored the rule each would start a generation, so each runs only when --spend
// covers one generation.
import { randomUUID } from 'node:crypto';
import { IdempotencyKeySchema, ProfileIdSchema } from '@profile-articles/sdk/schemas';
import { paidProbe } from '../budget.js';
import { call, expectAnswer, type RunContext, unusedSlug } from '../context.js';
import { tooLong } from '../contract.js';
import type { ProbeRequest } from '../probe.js';

const LONG_KEY = tooLong(IdempotencyKeySchema);
const LONG_PROFILE = tooLong(ProfileIdSchema);

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

export async function checkGuardedValidation(ctx: RunContext): Promise<void> {
  const worstCase = ctx.pricing.generation_credits;
  const what = 'on a server that ignored this rule, it';
  for (const [id, name, make] of PROBES) {
    const request = make(unusedSlug('verify-probe'));
    const measured = await paidProbe(ctx, { endpoint: 'generateArticle', id, name, worstCase, what }, () =>
      call(ctx, 'generateArticle', request),
    );
    if (measured) expectAnswer(ctx, 'generateArticle', id, name, measured.result, 422);
  }
}
