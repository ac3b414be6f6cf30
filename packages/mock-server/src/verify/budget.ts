// --spend as a limit verify keeps by measurement: what a paid probe may cost is known before
// it is sent (the higher of the interface's price and the advertised one, never the
// server's word alone), and what it did cost is read off the balance around it
// (paid-probe.ts). Once a charge could not be trusted, no paid probe starts again.
import { type Pricing, PricingSchema } from '@profile-articles/sdk/schemas';

export class Budget {
  #spent = 0;
  #stoppedBy: string | undefined;
  constructor(readonly limit: number) {}
  get spent(): number {
    return this.#spent;
  }
  /** What is left of --spend; 0 once a server took more than it was allowed. */
  get remaining(): number {
    return Math.max(0, this.limit - this.#spent);
  }
  /** Why paid probes stopped; undefined while they may run. */
  get stoppedBy(): string | undefined {
    return this.#stoppedBy;
  }
  spend(credits: number): void {
    this.#spent += Math.max(0, credits);
  }
  /** A refund the balance showed. */
  giveBack(credits: number): void {
    this.#spent = Math.max(0, this.#spent - Math.max(0, credits));
  }
  /** No paid probe starts after this; the first reason is kept. */
  stop(reason: string): void {
    this.#stoppedBy ??= reason;
  }
}

/** The price a paid probe is budgeted at. */
export type PriceKind = 'read' | 'generation';

const PRICE_FIELD = { read: 'read_credits', generation: 'generation_credits' } as const;

/** The interface's default terms: what a server that advertises less may still charge. */
const INTERFACE_PRICING = PricingSchema.parse({});

/**
 * What a paid probe of `kind` may cost: the higher of the interface's default price and the
 * advertised one. A server that advertises a generation at 1 credit and charges 100 is the
 * case this guards against; one that advertises more is taken at its word.
 */
export function allowance(pricing: Pricing, kind: PriceKind): number {
  const field = PRICE_FIELD[kind];
  return Math.max(INTERFACE_PRICING[field], pricing[field]);
}

/** `1 credit`, `100 credits`. */
export const creditsText = (credits: number) => (credits === 1 ? '1 credit' : `${credits} credits`);
