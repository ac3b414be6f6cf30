// The types of the calls where money is at stake: spendLimit and client.spent, SpendLimitError,
// generateAndWait's onConflict and credits.checkoutAndWait. Compiled by types.test.ts against
// the built dist/, never run: every `@ts-expect-error` line must fail to compile.
import {
  type Article,
  type BalanceResponse,
  type CheckoutSessionResponse,
  type CheckoutWaitOptions,
  type GenerateAndWaitOptions,
  ProfileArticles,
  type ProfileArticlesError,
  type SpendLimitError,
} from '@profile-articles/sdk';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const holds = <T extends true>(_proof?: T) => {};

export const capped = new ProfileArticles({ spendLimit: 500 });
// @ts-expect-error spendLimit is a number of credits
new ProfileArticles({ spendLimit: '500' });
declare const client: ProfileArticles;
holds<Equal<typeof client.spent, number>>();
// @ts-expect-error spent is read-only
client.spent = 0;

declare const refused: SpendLimitError;
holds<
  Equal<
    [typeof refused.limit, typeof refused.spent, typeof refused.inFlight, typeof refused.price],
    [number, number, number, number]
  >
>();
export const isBase: ProfileArticlesError = refused;
// @ts-expect-error its fields are readonly
refused.limit = 1;

// onConflict: on generateAndWait only, 'wait' or 'throw'.
export const waiting: Promise<Article> = client.articles.generateAndWait('ada', { onConflict: 'wait' });
client.articles.generateAndWait('ada', { onConflict: 'throw', waitTimeoutMs: 1_000, intervalMs: 100 });
// @ts-expect-error no such choice
client.articles.generateAndWait('ada', { onConflict: 'retry' });
// @ts-expect-error an update has no onConflict
client.articles.updateAndWait('ada', { onConflict: 'wait' });
holds<Equal<GenerateAndWaitOptions['onConflict'], 'wait' | 'throw' | undefined>>();

// checkoutAndWait: onCheckout is required and hears the session; it resolves to the balance.
export const bought: Promise<BalanceResponse> = client.credits.checkoutAndWait(100, {
  onCheckout: (session) => {
    holds<Equal<typeof session, CheckoutSessionResponse>>();
  },
  onPoll: (balance) => {
    holds<Equal<typeof balance, BalanceResponse>>();
  },
  timeoutMs: 60_000,
  intervalMs: 5_000,
  signal: AbortSignal.timeout(1_000),
});
client.credits.checkoutAndWait(100, { onCheckout: async () => {} });
// @ts-expect-error someone has to see the payment page
client.credits.checkoutAndWait(100, {});
// @ts-expect-error the options are required
client.credits.checkoutAndWait(100);
holds<Equal<CheckoutWaitOptions['timeoutMs'], number | undefined>>();

// fetchOptions take undici's `dispatcher` (an Agent, a ProxyAgent, a MockAgent), as the docs say,
// under `strict` and without undici's types; what the SDK sets itself stays a compile error.
declare class Agent {
  dispatch(): boolean;
}
export const dispatched = new ProfileArticles({ fetchOptions: { dispatcher: new Agent() } });
dispatched.credits.balance({ fetchOptions: { dispatcher: new Agent(), keepalive: true } });
// @ts-expect-error the SDK sets the method itself
new ProfileArticles({ fetchOptions: { method: 'GET' } });
