// 401 on every endpoint, with a made-up key and with no key at all. None of these can
// cost the account anything: a server that took them would not know whose account it is.
import { randomUUID } from 'node:crypto';
import { type CallRequest, call, expectAnswer, type RunContext, unusedSlug } from '../context.js';
import type { EndpointName } from '../contract.js';

function requests(ctx: RunContext): Array<[EndpointName, CallRequest]> {
  const profile_id = unusedSlug('verify-auth');
  return [
    ['getBalance', {}],
    ['createCheckout', { body: { credits: ctx.pricing.min_purchase_credits } }],
    ['readArticle', { params: { profile_id } }],
    ['generateArticle', { body: { profile_id }, idempotencyKey: randomUUID() }],
    ['updateArticle', { params: { profile_id }, idempotencyKey: randomUUID() }],
    ['getJob', { params: { job_id: randomUUID() } }],
  ];
}

export async function checkAuth(ctx: RunContext): Promise<void> {
  for (const [endpoint, request] of requests(ctx)) {
    const madeUp = await call(ctx, endpoint, { ...request, auth: { madeUp: `verify-${randomUUID()}` } });
    expectAnswer(ctx, endpoint, `auth.${endpoint}.made-up-key`, '401 with a made-up key', madeUp, 401);
    const none = await call(ctx, endpoint, { ...request, auth: 'none' });
    expectAnswer(ctx, endpoint, `auth.${endpoint}.no-key`, '401 without a key', none, 401);
  }
}
