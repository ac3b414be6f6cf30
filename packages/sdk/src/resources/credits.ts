import type { ApiPromise } from '../api-promise.js';
import { callEndpoint } from '../endpoint-call.js';
import type { RequestOptions } from '../options.js';
import type { BalanceResponse, CheckoutSessionResponse } from '../schemas/credits.js';
import { ENDPOINTS, type EndpointName } from '../schemas/endpoints.js';
import type { Transport } from '../transport-types.js';

/** The contract-table entry each method calls (see bindings.ts). */
export const CREDIT_ENDPOINTS = {
  balance: 'getBalance',
  checkout: 'createCheckout',
} as const satisfies Partial<Record<keyof Credits, EndpointName>>;

export class Credits {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** The account's shared balance and its terms, every Pricing default filled in. Free. */
  balance(opts?: RequestOptions): ApiPromise<BalanceResponse> {
    return callEndpoint(this.#transport, ENDPOINTS[CREDIT_ENDPOINTS.balance], {}, opts);
  }

  /**
   * Starts a payment checkout; open `url` to pay. Credits arrive after payment: watch `balance()`.
   * Not idempotent, so it is retried only on 429 and on connections that never reached the server.
   */
  checkout(credits: number, opts?: RequestOptions): ApiPromise<CheckoutSessionResponse> {
    return callEndpoint(this.#transport, ENDPOINTS[CREDIT_ENDPOINTS.checkout], { body: { credits } }, opts);
  }
}
