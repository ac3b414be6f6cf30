// The public surface of @profile-articles/sdk.

// The resources' types (`client.articles` has type `Articles`): interfaces, never classes.
export { type Articles, type Credits, type Jobs, ProfileArticles } from './client.js';
export type { ApiPromise } from './core/api-promise.js';
export type { Logger, LogLevel, LogMethod } from './core/log.js';
export type {
  AttemptInfo,
  ClientOptions,
  FetchOptions,
  Hooks,
  IdempotentRequestOptions,
  Middleware,
  MiddlewareRequest,
  RequestOptions,
  ResponseInfo,
  RetryInfo,
  TracerProvider,
} from './core/option-types.js';
export type { RawRequest, RequestMethod } from './core/raw-request.js';
export { type AnswerHeaders, describeDetail } from './errors/api-errors.js';
export * from './errors/errors.js';
export type { ResponseIssue } from './errors/response-issue.js';
export {
  type AndWaitOptions,
  type GenerateAndWaitOptions,
  type GenerateResponse,
  isJob,
} from './resources/articles.js';
export type { Pacing } from './retry/pacing.js';
export type { EndpointName } from './schemas/endpoints.js';
export * from './schemas/index.js';
export type { CheckoutWaitOptions } from './waits/checkout-wait.js';
export type { OnConflict } from './waits/conflict-wait.js';
export { DEFAULT_WAIT_TIMEOUT_MS, type WaitOptions } from './waits/polling.js';
