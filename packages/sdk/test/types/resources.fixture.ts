// The resources are types a customer can name (`client.articles` has type `Articles`), never
// classes to construct: their constructors take the SDK's internal transport. Compiled by
// types.test.ts against the built dist/, never run.
import type {
  Articles,
  Credits,
  ErrorBody,
  Jobs,
  ProfileArticles,
  ProfileRequest,
  ValidationIssue,
} from '@profile-articles/sdk';

declare const client: ProfileArticles;
export const articles: Articles = client.articles;
export const jobs: Jobs = client.jobs;
export const credits: Credits = client.credits;

// No class behind the names, so nothing to construct (`typeof` of a class would compile).
// @ts-expect-error Articles is a type only
export type ArticlesConstructor = typeof Articles;
// @ts-expect-error Jobs is a type only
export type JobsConstructor = typeof Jobs;
// @ts-expect-error Credits is a type only
export type CreditsConstructor = typeof Credits;

declare const body: ErrorBody;
// @ts-expect-error ErrorBody is exact: `detial` is not a field
body.detial;
export const detail: string | ValidationIssue[] = body.detail;
declare const issue: ValidationIssue;
export const where: Array<string | number> | undefined = issue.loc;
// The interface leaves an entry's other properties open.
export const extra: unknown = issue.ctx;

declare const request: ProfileRequest;
// @ts-expect-error ProfileRequest has only profile_id
request.profile;
