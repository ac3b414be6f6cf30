// credits.checkoutAndWait against the real mock over HTTP: a person presses Pay on the page the
// session names (payCheckoutPage), while the client reads the balance.
import { payCheckoutPage } from '@profile-articles/mock-server';
import { useMockServer } from '@profile-articles/test-utils/mock-suite';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type CheckoutSessionResponse,
  type ClientOptions,
  InvalidArgumentError,
  ProfileArticles,
  TimeoutError,
} from '../src/node.js';
import { purchaseArrived } from '../src/waits/checkout-wait.js';
import { TRANSPORTS } from './scripted-client.js';

// Each test buys as an account of its own. A test whose wait ends by timeout or abort leaves a
// balance read the mock may answer (and journal) after the next test's reset: in a shuffled run
// (seed 1795669896332) one landed between another test's first read and its checkout.
const BUYERS = 40;
const mock = useMockServer({
  accounts: Array.from({ length: BUYERS }, (_, i) => ({
    id: `buyer-${i}`,
    apiKeys: [`key-buyer-${i}`],
    credits: 1_000,
    pricing: { requests_per_minute: 100_000 },
  })),
});
let buyer = -1;
beforeEach(() => {
  buyer++;
  if (buyer >= BUYERS) throw new Error('checkout-wait.test: more tests than buyer accounts');
});

/** This test's buyer's requests the mock answered, as `METHOD path`. */
const heard = () =>
  mock.service
    .journal()
    .reverse() // oldest first: the journal answers newest first
    .filter((e) => e.accountId === `buyer-${buyer}`)
    .map((e) => `${e.method} ${e.path}`);

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const client = (extra: ClientOptions = {}) =>
    new ProfileArticles({
      apiKey: `key-buyer-${buyer}`,
      baseUrl: mock.url,
      pollIntervalMs: 5,
      ...options,
      ...extra,
    });

  it('hands the session over, then resolves to the balance once the credits arrive', async () => {
    const sessions: CheckoutSessionResponse[] = [];
    const polled: number[] = [];
    let paid: Promise<unknown> | undefined;
    const balance = await client().credits.checkoutAndWait(200, {
      onCheckout: (session) => {
        sessions.push(session);
      },
      // Nobody has paid at the first read: the person pays then.
      onPoll: (seen) => {
        polled.push(seen.credits);
        if (polled.length === 1) paid = payCheckoutPage(sessions[0]!.url);
      },
    });
    expect(balance.credits).toBe(1_200);
    await paid;
    expect(balance.pricing.min_purchase_credits).toBe(10);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.url).toContain(mock.url);
    expect(polled[0]).toBe(1_000);
    expect(mock.service.ledger().accounts.find((a) => a.accountId === `buyer-${buyer}`)?.purchased).toBe(200);
    // The balance before the checkout, the checkout, then only balance reads.
    expect(heard().slice(0, 2)).toEqual(['GET /api/v1/credits', 'POST /api/v1/credits/checkout']);
    expect(
      heard()
        .slice(2)
        .every((line) => line === 'GET /api/v1/credits'),
    ).toBe(true);
  });

  it('counts a payment made before the first read: the balance was taken before the checkout', async () => {
    const polled: number[] = [];
    const balance = await client().credits.checkoutAndWait(50, {
      onCheckout: async (session) => {
        await payCheckoutPage(session.url);
      },
      onPoll: (seen) => polled.push(seen.credits),
    });
    expect(balance.credits).toBe(1_050);
    expect(polled).toEqual([]);
  });

  it('tells the payment from spending meanwhile: a rise of at least the credits between two reads', async () => {
    const spender = client();
    const sessions: CheckoutSessionResponse[] = [];
    let spent: Promise<unknown> | undefined;
    let paid: Promise<unknown> | undefined;
    const balance = await client().credits.checkoutAndWait(100, {
      onCheckout: (session) => {
        sessions.push(session);
      },
      onPoll: (seen) => {
        // Another part of the program spends first; the payment lands once that was seen.
        if (seen.credits === 1_000 && !spent) spent = spender.articles.generate('ada-lovelace');
        if (seen.credits === 900 && !paid) paid = payCheckoutPage(sessions[0]!.url);
      },
    });
    // Never start + 100: the rise from 900 to 1000 is the payment.
    expect(balance.credits).toBe(1_000);
    await Promise.all([spent, paid]);
  });

  it('gives up after timeoutMs with a TimeoutError that says the payment may still arrive', async () => {
    const error = await rejectionOf(
      client().credits.checkoutAndWait(100, { onCheckout: () => {}, timeoutMs: 30, intervalMs: 5 }),
      TimeoutError,
    );
    expect(error.message).toMatch(/the 100 credits have not arrived yet/);
    expect(error.message).toMatch(/may still arrive later/);
  });

  it('stops when the signal aborts, with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('the person closed the window');
    const error = await rejectionOf(
      client().credits.checkoutAndWait(100, {
        onCheckout: () => {},
        onPoll: () => controller.abort(reason),
        signal: controller.signal,
      }),
    );
    expect(error).toBe(reason);
  });

  it('an onCheckout that throws ends the call: no wait', async () => {
    const refused = new Error('not a page I will open');
    const error = await rejectionOf(
      client().credits.checkoutAndWait(100, {
        onCheckout: () => {
          throw refused;
        },
      }),
    );
    expect(error).toBe(refused);
    expect(heard()).toEqual(['GET /api/v1/credits', 'POST /api/v1/credits/checkout']);
  });

  it('a purchase outside the account’s range is the server’s 400: onCheckout is never called', async () => {
    let called = false;
    await rejectionOf(
      client().credits.checkoutAndWait(5, {
        onCheckout: () => {
          called = true;
        },
      }),
      BadRequestError,
    );
    expect(called).toBe(false);
  });

  it('refuses to start without onCheckout, or with a bad timeout or interval, before sending', async () => {
    const credits = client().credits;
    await rejectionOf(credits.checkoutAndWait(100, {} as never), InvalidArgumentError);
    await rejectionOf(credits.checkoutAndWait(100, undefined as never), InvalidArgumentError);
    await rejectionOf(
      credits.checkoutAndWait(100, { onCheckout: () => {}, timeoutMs: -1 }),
      InvalidArgumentError,
    );
    await rejectionOf(
      credits.checkoutAndWait(100, { onCheckout: () => {}, intervalMs: Number.NaN }),
      InvalidArgumentError,
    );
    expect(heard()).toEqual([]);
  });
});

it('tells arrival from other spending: reaching start + credits, or a rise of at least the credits', () => {
  expect(purchaseArrived(1000, 1000, 1100, 100)).toBe(true);
  expect(purchaseArrived(1000, 900, 1000, 100)).toBe(true);
  expect(purchaseArrived(1000, 1000, 900, 100)).toBe(false);
  expect(purchaseArrived(1000, 900, 950, 100)).toBe(false);
  expect(purchaseArrived(1000, 1000, 1099, 100)).toBe(false);
});
