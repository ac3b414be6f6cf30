// The first call of a run: the balance with the real key. It proves the key works (a 401
// stops the run: exit 4), and its Pricing sets the prices every later check expects.
import { type Pricing, PricingSchema } from '@profile-articles/sdk/schemas';
import { call, expectAnswer, objectBody, type RunContext, record } from '../context.js';
import { UnreachableError } from '../probe.js';

export class KeyRefusedError extends Error {
  override name = 'KeyRefusedError';
}

/** The contract's Pricing fields and their defaults (`credit_price_cents` has none). */
const PRICING_DEFAULTS: Record<keyof Pricing & string, number | undefined> = {
  read_credits: 1,
  generation_credits: 100,
  credit_price_cents: undefined,
  queued_timeout_minutes: 30,
  requests_per_minute: 120,
  min_purchase_credits: 10,
  max_purchase_credits: 100000,
};

function checkPricingFields(ctx: RunContext, pricing: Record<string, unknown>) {
  for (const [field, fallback] of Object.entries(PRICING_DEFAULTS)) {
    const value = pricing[field];
    const base = {
      id: `credits.pricing.${field}`,
      endpoint: 'getBalance' as const,
      name: `pricing.${field}`,
    };
    if (value === undefined) {
      const reason =
        fallback === undefined ? 'absent (the contract gives no default)' : `absent: default ${fallback}`;
      record(ctx, { ...base, status: 'passed', reason });
    } else if (Number.isInteger(value) && (value as number) > 0) {
      record(ctx, { ...base, status: 'passed' });
    } else {
      record(ctx, { ...base, status: 'failed', expected: 'an integer > 0', got: JSON.stringify(value) });
    }
  }
}

export async function checkBalance(ctx: RunContext): Promise<void> {
  const answer = await call(ctx, 'getBalance');
  if (answer.status === 401) throw new KeyRefusedError('the API key was refused (401)');
  // 421: the server does not answer to the host it was called by (our mock's DNS rebinding
  // check says so for a name not given to --allow-host). Every later probe would get the same,
  // so the run stops here with the server's own words, once.
  if (answer.status === 421) {
    const detail = objectBody(answer).detail;
    const said = typeof detail === 'string' ? `: ${detail.slice(0, 300)}` : '';
    throw new UnreachableError(`${ctx.options.origin} answered 421 Misdirected Request${said}`);
  }
  expectAnswer(ctx, 'getBalance', 'credits.balance', 'balance with the key', answer, 200);
  const pricing = objectBody(answer).pricing;
  if (typeof pricing === 'object' && pricing !== null) {
    checkPricingFields(ctx, pricing as Record<string, unknown>);
    const parsed = PricingSchema.safeParse(pricing);
    if (parsed.success) ctx.pricing = parsed.data;
  }
}
