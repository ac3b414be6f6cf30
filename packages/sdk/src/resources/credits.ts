import type { ApiPromise } from '../core/api-promise.js';
import { callEndpoint } from '../core/endpoint-call.js';
import type { RequestOptions } from '../core/option-types.js';
import type { Transport } from '../core/transport-types.js';
import type { BalanceResponse, CheckoutSessionResponse } from '../schemas/credits.js';
import { ENDPOINTS, type EndpointName } from '../schemas/endpoints.js';
import { type CheckoutWaitOptions, checkoutAndWait } from '../waits/checkout-wait.js';

/** The contract-table entry each method calls (see bindings.ts). */
export const CREDIT_ENDPOINTS = {
  balance: 'getBalance',
  checkout: 'createCheckout',
} as const satisfies Partial<Record<keyof Credits, EndpointName>>;

export class Credits {
  readonly #transport: Transport;
  /** The client's: between balance reads while waiting for a payment. */
  readonly #pollIntervalMs: number;

  constructor(transport: Transport, pollIntervalMs: number) {
    this.#transport = transport;
    this.#pollIntervalMs = pollIntervalMs;
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

  /**
   * Starts a checkout, hands the session to `onCheckout` (show or open its `url`), then reads
   * the balance every `intervalMs` until the credits have arrived, and resolves to that balance.
   * Arrived: the balance reached the one read before the checkout plus `credits`, or rose by at
   * least `credits` between two reads. Rejects with TimeoutError after `timeoutMs` (default
   * 30 minutes; the payment may still arrive later), or with the signal's reason.
   */
  checkoutAndWait(credits: number, opts: CheckoutWaitOptions): Promise<BalanceResponse> {
    // A span when tracing, whose children are the checkout and the balance reads (tracing/hook.ts).
    return this.#transport.wait('credits.checkoutAndWait', opts, (traced) =>
      checkoutAndWait(this, credits, traced, this.#pollIntervalMs),
    );
  }
}
