// 401 on every endpoint, with a made-up key and with no key at all. A conforming server
// answers 401 before it looks at the request, so the requests need not be valid; they are
// made invalid on purpose (a profile_id over the limit, no Idempotency-Key), so that a
// server that ignores auth answers 422 instead of starting paid work beyond --spend.
// Whatever such a server still charged is read off the balance around the probes, counted,
// and fails `auth.no-charge`.
import { randomUUID } from 'node:crypto';
import { ProfileIdSchema } from '@profile-articles/sdk/schemas';
import { type CallRequest, call, expectAnswer, type RunContext } from '../context.js';
import { type EndpointName, tooLong } from '../contract.js';
import { freeChecks } from '../paid-probe.js';

const LONG_PROFILE = tooLong(ProfileIdSchema);

function requests(ctx: RunContext): Array<[EndpointName, CallRequest]> {
  const params = { profile_id: LONG_PROFILE };
  return [
    ['getBalance', {}],
    // Opens no payment page and moves no credits, even if a server took it.
    ['createCheckout', { body: { credits: ctx.pricing.min_purchase_credits } }],
    ['readArticle', { params }],
    ['generateArticle', { body: { profile_id: LONG_PROFILE } }],
    ['updateArticle', { params }],
    ['getJob', { params: { job_id: randomUUID() } }],
  ];
}

export async function checkAuth(ctx: RunContext): Promise<void> {
  await freeChecks(ctx, 'auth', async () => {
    for (const [endpoint, request] of requests(ctx)) {
      const madeUp = await call(ctx, endpoint, { ...request, auth: { madeUp: `verify-${randomUUID()}` } });
      expectAnswer(ctx, endpoint, `auth.${endpoint}.made-up-key`, '401 with a made-up key', madeUp, 401);
      const none = await call(ctx, endpoint, { ...request, auth: 'none' });
      expectAnswer(ctx, endpoint, `auth.${endpoint}.no-key`, '401 without a key', none, 401);
    }
  });
}
