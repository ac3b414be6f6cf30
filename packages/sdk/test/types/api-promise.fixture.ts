// Compile-time facts about ApiPromise and the per-call options, checked by tsc (types.test.ts)
// against the built declarations; nothing here runs. Every `@ts-expect-error` line must fail
// to compile, and every `Equal` must hold.
import type {
  ApiPromise,
  BalanceResponse,
  CheckoutSessionResponse,
  GenerateResponse,
  Job,
  ProfileArticles,
  ProfileArticlesError,
  ReadResponse,
} from '@profile-articles/sdk';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const holds = <T extends true>(_proof?: T) => {};

declare const client: ProfileArticles;

export async function everySingleRequestCallIsAnApiPromise() {
  holds<Equal<ReturnType<typeof client.articles.read>, ApiPromise<ReadResponse>>>();
  holds<Equal<ReturnType<typeof client.articles.generate>, ApiPromise<GenerateResponse>>>();
  holds<Equal<ReturnType<typeof client.articles.update>, ApiPromise<Job>>>();
  holds<Equal<ReturnType<typeof client.jobs.get>, ApiPromise<Job>>>();
  holds<Equal<ReturnType<typeof client.credits.balance>, ApiPromise<BalanceResponse>>>();
  holds<Equal<ReturnType<typeof client.credits.checkout>, ApiPromise<CheckoutSessionResponse>>>();
}

export async function stillAPromiseOfTheValue() {
  const balance = await client.credits.balance();
  holds<Equal<typeof balance, BalanceResponse>>();
  const promise: Promise<BalanceResponse> = client.credits.balance();
  void promise;
}

export async function withResponseAndAsResponse() {
  const answer = await client.articles.read('ada').withResponse();
  holds<Equal<typeof answer.data, ReadResponse>>();
  holds<Equal<typeof answer.response, Response>>();
  holds<Equal<typeof answer.requestId, string | undefined>>();
  const raw = await client.jobs.get('id').asResponse();
  holds<Equal<typeof raw, Response>>();
}

export function requestIdsAndJson(error: ProfileArticlesError) {
  holds<Equal<typeof error.requestId, string | undefined>>();
  const json = error.toJSON();
  holds<Equal<typeof json.name, string>>();
  holds<Equal<typeof json.requestId, string | undefined>>();
  // @ts-expect-error toJSON never has the key, nor the headers
  json.headers;
}

export async function headersAndFetchOptions() {
  await client.credits.balance({ headers: { 'x-trace': '1' }, fetchOptions: { cache: 'no-store' } });
  await client.articles.generate('ada', { headers: { 'x-trace': '1' }, idempotencyKey: 'k' });
  // @ts-expect-error fetchOptions cannot set the method
  await client.credits.balance({ fetchOptions: { method: 'POST' } });
  // @ts-expect-error nor the redirect rule
  await client.credits.balance({ fetchOptions: { redirect: 'follow' } });
  // @ts-expect-error nor the signal (the call's own `signal` option does)
  await client.credits.balance({ fetchOptions: { signal: new AbortController().signal } });
}
