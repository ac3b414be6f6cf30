// Compiled by types.test.ts (tsc over types/tsconfig.json, against the built dist/ a customer
// installs), never run. Every `@ts-expect-error` line must fail to
// compile (an unused one is itself an error), and every `Equal` must hold.
import {
  type Article,
  type GenerateResponse,
  isActiveStatus,
  isJob,
  isTerminalStatus,
  type Job,
  type JobStatus,
  type Pricing,
  type ProfileArticles,
  type ReadResponse,
  type Source,
  type TerminalJob,
} from '@profile-articles/sdk';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const holds = <T extends true>(_proof?: T) => {};

declare const client: ProfileArticles;
declare const article: Article;
declare const source: Source;
declare const pricing: Pricing;
declare const status: JobStatus;

// A misspelled field is a compile error, on every response type.
// @ts-expect-error `titel` is not a field of Article
article.titel;
// @ts-expect-error `urll` is not a field of Source
source.urll;

// What a caller gets after parsing: defaults filled in, nulls always present.
holds<Equal<Source['url'], string | null>>();
holds<Equal<Source['publication'], string | null>>();
holds<Equal<Source['excerpt'], string | null>>();
holds<Equal<Pricing['read_credits'], number>>();
holds<Equal<Pricing['requests_per_minute'], number>>();
holds<Equal<typeof pricing.max_purchase_credits, number>>();

export async function generateNarrows() {
  const answer = await client.articles.generate('ada');
  holds<Equal<typeof answer, ReadResponse | Job>>();
  holds<Equal<GenerateResponse, ReadResponse | Job>>();
  if (isJob(answer)) holds<Equal<typeof answer, Job>>();
  else holds<Equal<typeof answer, ReadResponse>>();
}

export async function waitForIsTerminal() {
  const job = await client.jobs.waitFor('00000000-0000-4000-8000-000000000000');
  holds<Equal<typeof job, TerminalJob>>();
  holds<Equal<typeof job.status, 'succeeded' | 'failed' | 'cancelled'>>();
}

export function statusGuards() {
  if (isTerminalStatus(status)) holds<Equal<typeof status, 'succeeded' | 'failed' | 'cancelled'>>();
  if (isActiveStatus(status)) holds<Equal<typeof status, 'queued' | 'running'>>();
}

export async function idempotencyKeyOnlyWhereItMeansSomething() {
  await client.articles.generate('ada', { idempotencyKey: 'k' });
  await client.articles.update('ada', { idempotencyKey: 'k' });
  await client.articles.generateAndWait('ada', { idempotencyKey: 'k', waitTimeoutMs: 1 });
  await client.articles.updateAndWait('ada', { idempotencyKey: 'k' });
  // @ts-expect-error a read has no idempotency key
  await client.articles.read('ada', { idempotencyKey: 'k' });
  // @ts-expect-error nor has a poll
  await client.jobs.get('id', { idempotencyKey: 'k' });
  // @ts-expect-error nor has a checkout
  await client.credits.checkout(10, { idempotencyKey: 'k' });
}

// The hook payload no longer clashes with the DOM's RequestInfo.
// @ts-expect-error RequestInfo is not exported by the SDK
export type Gone = import('../../src/index.js').RequestInfo;
