import type { Transport } from '../http.js';
import type { RequestOptions } from '../options.js';
import {
  type BalanceResponse,
  BalanceResponseSchema,
  type CheckoutSessionResponse,
  CheckoutSessionResponseSchema,
} from '../schemas/credits.js';

export class Credits {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** The account's shared balance and its terms, every Pricing default filled in. Free. */
  balance(opts?: RequestOptions): Promise<BalanceResponse> {
    return this.#transport.request(
      {
        method: 'GET',
        path: '/credits',
        policy: 'idempotent',
        parse: (b) => BalanceResponseSchema.safeParse(b),
      },
      opts,
    );
  }

  /**
   * Starts a payment checkout; open `url` to pay. Credits arrive after payment: watch `balance()`.
   * Not idempotent, so it is retried only on 429 and on connections that never reached the server.
   */
  checkout(credits: number, opts?: RequestOptions): Promise<CheckoutSessionResponse> {
    return this.#transport.request(
      {
        method: 'POST',
        path: '/credits/checkout',
        body: { credits },
        policy: 'unsafe',
        isCheckout: true,
        parse: (b) => CheckoutSessionResponseSchema.safeParse(b),
      },
      opts,
    );
  }
}
