// The public surface of @profile-articles/sdk.
import type { Articles as ArticlesResource } from './resources/articles.js';
import type { Credits as CreditsResource } from './resources/credits.js';
import type { Jobs as JobsResource } from './resources/jobs.js';

export type { ApiPromise } from './api-promise.js';
export type { CheckoutWaitOptions } from './checkout-wait.js';
export { ProfileArticles } from './client.js';
export { describeDetail } from './error-from-answer.js';
export * from './errors.js';
export type { Logger, LogLevel } from './log.js';
export type {
  AttemptInfo,
  ClientOptions,
  Hooks,
  IdempotentRequestOptions,
  RequestOptions,
  ResponseInfo,
  RetryInfo,
} from './options.js';
export type { Pacing } from './pacing.js';
export { DEFAULT_WAIT_TIMEOUT_MS, type WaitOptions } from './polling.js';
export {
  type AndWaitOptions,
  type GenerateAndWaitOptions,
  type GenerateResponse,
  isJob,
} from './resources/articles.js';

// The resources' instance types, as `client.articles` has them. Aliases, not `export type {}`
// of the classes: the bundled .d.ts would turn those into class exports, and `new Articles(…)`
// with the internal transport would compile (and fail at run time, where there is no class).
/** `client.articles`: read, generate and update articles. */
export type Articles = ArticlesResource;
/** `client.jobs`: look up and wait for generation jobs. */
export type Jobs = JobsResource;
/** `client.credits`: the balance and buying credits. */
export type Credits = CreditsResource;
export * from './schemas/index.js';
export type { ResponseIssue } from './transport-types.js';
