// 401 on every endpoint, with a made-up key and with no key at all. None of these can
// cost the account anything: a server that took them would not know whose account it is.
import { randomUUID } from 'node:crypto';
import { call, expectAnswer, type RunContext, unusedSlug } from '../context.js';
import type { EndpointName } from '../contract.js';
import type { ProbeRequest } from '../probe.js';

function requests(ctx: RunContext): Array<[EndpointName, Omit<ProbeRequest, 'endpoint' | 'auth'>]> {
  const slug = unusedSlug('verify-auth');
  return [
    ['balance', { method: 'GET', path: '/api/v1/credits' }],
    [
      'checkout',
      {
        method: 'POST',
        path: '/api/v1/credits/checkout',
        body: { credits: ctx.pricing.min_purchase_credits },
      },
    ],
    ['read', { method: 'GET', path: `/api/v1/articles/${slug}` }],
    [
      'generate',
      { method: 'POST', path: '/api/v1/articles', body: { profile_id: slug }, idempotencyKey: randomUUID() },
    ],
    ['update', { method: 'POST', path: `/api/v1/articles/${slug}/update`, idempotencyKey: randomUUID() }],
    ['job', { method: 'GET', path: `/api/v1/jobs/${randomUUID()}` }],
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
