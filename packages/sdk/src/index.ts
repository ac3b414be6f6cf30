// The public surface of @profile-articles/sdk.
export { describeDetail } from './api-error.js';
export { ProfileArticles } from './client.js';
export * from './errors.js';
export type {
  AttemptInfo,
  ClientOptions,
  Hooks,
  IdempotentRequestOptions,
  Logger,
  RequestOptions,
  ResponseInfo,
  RetryInfo,
} from './options.js';
export type { Pacing } from './pacing.js';
export { DEFAULT_WAIT_TIMEOUT_MS, type WaitOptions } from './polling.js';
export type { Articles } from './resources/articles.js';
export { type AndWaitOptions, type GenerateResponse, isJob } from './resources/articles.js';
export type { Credits } from './resources/credits.js';
export type { Jobs } from './resources/jobs.js';
export * from './schemas/index.js';
export type { ResponseIssue } from './transport-types.js';
