import * as z from 'zod/mini';

const positiveInt = () => z.int().check(z.positive());

/** An account's terms and limits. Every field but `credit_price_cents` has the interface's default. */
export const PricingSchema = z.looseObject({
  read_credits: z._default(positiveInt(), 1),
  generation_credits: z._default(positiveInt(), 100),
  /** Price of one credit in cents; account-specific, no default. */
  credit_price_cents: z.optional(positiveInt()),
  queued_timeout_minutes: z._default(positiveInt(), 30),
  requests_per_minute: z._default(positiveInt(), 120),
  min_purchase_credits: z._default(positiveInt(), 10),
  max_purchase_credits: z._default(positiveInt(), 100000),
});

export type Pricing = z.infer<typeof PricingSchema>;
export type PricingInput = z.input<typeof PricingSchema>;

export const BalanceResponseSchema = z.looseObject({
  /** The balance shared by every API key of the customer account. */
  credits: z.int(),
  pricing: PricingSchema,
});

export type BalanceResponse = z.infer<typeof BalanceResponseSchema>;

/** Body of `createCheckout`. The allowed range is the account's purchase limits. */
export const CheckoutRequestSchema = z.strictObject({
  credits: positiveInt(),
});

export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;

export const CheckoutSessionResponseSchema = z.looseObject({
  session_id: z.string(),
  /** The payment page to open. Credits arrive after payment, not when this returns. */
  url: z.string(),
});

export type CheckoutSessionResponse = z.infer<typeof CheckoutSessionResponseSchema>;
