// The public surface of @profile-articles/sdk.

export type { AnswerHeaders } from './api-errors.js';
export type { ApiPromise } from './api-promise.js';
export type { CheckoutWaitOptions } from './checkout-wait.js';
// The resources' types (`client.articles` has type `Articles`): interfaces, never classes.
export { type Articles, type Credits, type Jobs, ProfileArticles } from './client.js';
export type { OnConflict } from './conflict-wait.js';
export { describeDetail } from './error-from-answer.js';
export * from './errors.js';
export type { Logger, LogLevel, LogMethod } from './log.js';
export type {
  AttemptInfo,
  ClientOptions,
  FetchOptions,
  Hooks,
  IdempotentRequestOptions,
  RequestOptions,
  ResponseInfo,
  RetryInfo,
} from './option-types.js';
export type { Pacing } from './pacing.js';
export { DEFAULT_WAIT_TIMEOUT_MS, type WaitOptions } from './polling.js';
export {
  type AndWaitOptions,
  type GenerateAndWaitOptions,
  type GenerateResponse,
  isJob,
} from './resources/articles.js';
export type { ResponseIssue } from './response-issue.js';
export type { EndpointName } from './schemas/endpoints.js';
export * from './schemas/index.js';
