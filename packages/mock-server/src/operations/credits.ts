import type { BalanceResponse, CheckoutSessionResponse } from '@profile-articles/sdk/schemas';
import { markUnchanging } from '../rules/json-text.js';
import type { OperationContext } from './context.js';
import { fail, type Outcome, ok } from './outcome.js';

// The last balance answered per account, kept while the balance and terms stay the same:
// polling the balance then costs neither a new answer nor its JSON text (see json-text.ts).
const lastBalance = new WeakMap<object, BalanceResponse>();

/** Free: the shared balance and the account's terms. */
export function getBalance(ctx: OperationContext): Outcome<BalanceResponse> {
  const credits = ctx.state.ledger.balance(ctx.account.id);
  const { pricing } = ctx.account;
  let response = lastBalance.get(ctx.account);
  if (response?.credits !== credits || response.pricing !== pricing) {
    response = { credits, pricing };
    markUnchanging(response);
    lastBalance.set(ctx.account, response);
  }
  return ok(response);
}

/** A payment page on the mock itself. Credits are added when it is paid, not now. */
export function createCheckout(
  ctx: OperationContext,
  credits: number,
  origin: string,
): Outcome<CheckoutSessionResponse, 200, 400 | 502 | 503> {
  const { pricing } = ctx.account;
  if (credits < pricing.min_purchase_credits || credits > pricing.max_purchase_credits) {
    return fail(
      400,
      `A purchase must be between ${pricing.min_purchase_credits} and ${pricing.max_purchase_credits} credits`,
    );
  }
  const mode = ctx.state.config.payments;
  if (mode === 'disabled') return fail(503, 'Payments are not configured');
  if (mode === 'unavailable') return fail(502, 'Checkout is unavailable; try again later');
  const session = ctx.state.checkouts.create(ctx.account.id, credits, pricing.credit_price_cents);
  const response: CheckoutSessionResponse = {
    session_id: session.id,
    url: `${origin}/checkout/${session.id}`,
  };
  return ok(response);
}
