import * as z from 'zod/mini';
import type { SameShape } from './same-shape.js';

const positiveInt = () => z.int().check(z.positive());

/** An account's terms and limits, every default of the interface filled in. */
export interface Pricing {
  /** Credits per read of an existing article. Default 1. */
  read_credits: number;
  /** Credits per generation or update. Default 100. */
  generation_credits: number;
  /** Price of one credit in cents; account-specific, with no default, so it may be absent. */
  credit_price_cents?: number | undefined;
  /** How long a job may stay queued. Default 30. */
  queued_timeout_minutes: number;
  /** The account's rate limit, shared by all its keys and counting free requests. Default 120. */
  requests_per_minute: number;
  /** Smallest purchase. Default 10. */
  min_purchase_credits: number;
  /** Largest purchase. Default 100000. */
  max_purchase_credits: number;
}

/** What `getBalance` answers. */
export interface BalanceResponse {
  /** The balance shared by every API key of the customer account. */
  credits: number;
  /** The account's terms and limits, every default filled in. */
  pricing: Pricing;
}

/** Body of `createCheckout`. The allowed range is the account's purchase limits. */
export interface CheckoutRequest {
  /** Credits to buy: above 0, and within the Pricing's `min_purchase_credits` to `max_purchase_credits`. */
  credits: number;
}

/** What `createCheckout` answers. */
export interface CheckoutSessionResponse {
  /** The checkout session's id; the interface does not fix its format. */
  session_id: string;
  /** The payment page to open. Credits arrive after payment, not when this returns. */
  url: string;
}

export const PricingSchema = z.looseObject({
  read_credits: z._default(positiveInt(), 1),
  generation_credits: z._default(positiveInt(), 100),
  credit_price_cents: z.optional(positiveInt()),
  queued_timeout_minutes: z._default(positiveInt(), 30),
  requests_per_minute: z._default(positiveInt(), 120),
  min_purchase_credits: z._default(positiveInt(), 10),
  max_purchase_credits: z._default(positiveInt(), 100000),
});

/** Pricing as the wire may carry it: every field optional. */
export type PricingInput = z.input<typeof PricingSchema>;

export const BalanceResponseSchema = z.looseObject({
  credits: z.int(),
  pricing: PricingSchema,
});

// Fields it does not name are accepted and ignored: the interface forbids extra fields only
// in a ProfileRequest (the generate body), so a checkout with one is not refused.
export const CheckoutRequestSchema = z.object({
  credits: positiveInt(),
});

export const CheckoutSessionResponseSchema = z.looseObject({
  session_id: z.string(),
  url: z.string(),
});

const _pricing: SameShape<Pricing, z.output<typeof PricingSchema>> = true;
const _balance: SameShape<BalanceResponse, z.output<typeof BalanceResponseSchema>> = true;
const _checkoutRequest: SameShape<CheckoutRequest, z.output<typeof CheckoutRequestSchema>> = true;
const _checkout: SameShape<CheckoutSessionResponse, z.output<typeof CheckoutSessionResponseSchema>> = true;
