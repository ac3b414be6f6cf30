// credits.checkoutAndWait: a checkout, the session handed to the caller to show or open, then
// the balance read until the credits have arrived. The interface has no checkout status, only
// the balance, and the account may spend or be credited meanwhile (another key, a refund, a
// second purchase), so "arrived" is read from the balances seen: see purchaseArrived.

import { nonNegative } from '../core/arguments.js';
import type { RequestOptions } from '../core/option-types.js';
import { InvalidArgumentError, TimeoutError } from '../errors/errors.js';
import { boundedSignal, sleep } from '../retry/abort.js';
import type { BalanceResponse, CheckoutSessionResponse } from '../schemas/credits.js';
import { parented } from '../tracing/tracer.js';

export interface CheckoutWaitOptions {
  /**
   * Called once with the checkout session, before the wait: show its `url` to whoever pays, or
   * open it. The `url` comes from the server: check it before you open it. The wait begins when
   * this returns (a promise is awaited); if it throws, the call rejects with that error.
   */
  onCheckout: (session: CheckoutSessionResponse) => void | Promise<void>;
  /** Called with each balance read while the credits have not arrived yet. */
  onPoll?: (balance: BalanceResponse) => void;
  /**
   * Bound on the wait, in ms, from when `onCheckout` returns. Default 30 minutes. Running out
   * rejects with TimeoutError; a payment made later still adds its credits.
   */
  timeoutMs?: number;
  /** Between balance reads. Default: the client's `pollIntervalMs`. */
  intervalMs?: number;
  /** Aborts the call, the checkout request and the wait; it rejects with the signal's reason. */
  signal?: AbortSignal;
}

const DEFAULT_CHECKOUT_WAIT_MS = 30 * 60_000;

/**
 * Whether the balances seen say that `credits` arrived: the balance reached the one before the
 * checkout plus `credits`, or rose by at least `credits` between two reads (the account spent
 * meanwhile). Another purchase or a refund of as many credits looks the same; spending in the
 * same interval as the payment can hide it until the timeout.
 */
export function purchaseArrived(start: number, previous: number, now: number, credits: number): boolean {
  return now >= start + credits || now - previous >= credits;
}

interface CreditCalls {
  balance(opts?: RequestOptions): Promise<BalanceResponse>;
  checkout(credits: number, opts?: RequestOptions): Promise<CheckoutSessionResponse>;
}

export async function checkoutAndWait(
  calls: CreditCalls,
  credits: number,
  opts: CheckoutWaitOptions,
  defaultIntervalMs: number,
): Promise<BalanceResponse> {
  // Checked before anything is sent.
  if (typeof opts?.onCheckout !== 'function') throw new InvalidArgumentError('onCheckout must be a function');
  const intervalMs = nonNegative('intervalMs', opts.intervalMs, defaultIntervalMs);
  const timeoutMs = nonNegative('timeoutMs', opts.timeoutMs, DEFAULT_CHECKOUT_WAIT_MS);
  // With the wait's span, when tracing: each request's parent.
  const request = parented(opts, opts.signal);
  // Read before the checkout: a payment made the moment the page opens still counts.
  const start = (await calls.balance(request)).credits;
  await opts.onCheckout(await calls.checkout(credits, request));

  const { signal, dispose } = boundedSignal(
    opts.signal,
    timeoutMs,
    () =>
      new TimeoutError(
        `Stopped waiting after ${timeoutMs} ms: the ${credits} credits have not arrived yet; the payment may still arrive later`,
      ),
  );
  try {
    for (let previous = start; ; ) {
      const balance = await calls.balance(parented(opts, signal));
      if (purchaseArrived(start, previous, balance.credits, credits)) return balance;
      opts.onPoll?.(balance);
      previous = balance.credits;
      await sleep(intervalMs, signal);
    }
  } finally {
    dispose();
  }
}
