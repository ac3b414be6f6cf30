// Compile-time facts about the error classes, checked by tsc (types.test.ts); nothing here runs.
// A line marked @ts-expect-error must fail to compile: if it compiles, tsc reports it.
import {
  ApiError,
  type AuthenticationError,
  type InvalidArgumentError,
  NotFoundError,
  type RateLimitError,
  type ResponseIssue,
  type ResponseValidationError,
  type ValidationError,
  type ValidationIssue,
} from '@profile-articles/sdk';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T => true as T;

assert<Equal<NotFoundError['status'], 404>>();
assert<Equal<AuthenticationError['status'], 401>>();
assert<Equal<RateLimitError['status'], 429>>();
assert<Equal<ValidationError['status'], 422>>();
assert<Equal<ApiError['status'], number>>();
assert<Equal<ApiError<418>['status'], 418>>();
assert<Equal<RateLimitError['retryAfterSeconds'], number | undefined>>();
assert<Equal<ValidationError['detail'], string | ValidationIssue[]>>();
assert<Equal<ResponseValidationError['issues'], readonly ResponseIssue[]>>();
assert<Equal<InvalidArgumentError['attempts'], number | undefined>>();

declare const issue: ValidationIssue;
export const where: Array<string | number> | undefined = issue.loc;
export const what: string | undefined = issue.msg;
export const extra: unknown = issue.ctx;

// A status class is built whole: its status comes from the class, never from the caller.
const notFound = new NotFoundError('404 gone', { detail: 'gone', headers: {} });
// @ts-expect-error NotFoundError takes no status
new NotFoundError('x', { status: 500, detail: 'x', headers: {} });
// @ts-expect-error public fields are readonly
notFound.status = 500;
// @ts-expect-error public fields are readonly
notFound.detail = 'changed';
// @ts-expect-error public fields are readonly
notFound.attempts = 3;
// @ts-expect-error public fields are readonly
notFound.idempotencyKey = 'other';

declare const error: unknown;
if (error instanceof ApiError && error.status === 404) {
  // Narrowing by class gives the literal.
  const status: 404 = (error as NotFoundError).status;
  void status;
}

export { notFound };

// `headers` is a plain object of lower-case names (redacted, JSON-friendly), not a `Headers`:
// a header the answer lacks reads as undefined, and `.get()` is a compile error, not a crash.
declare const answered: ApiError;
assert<Equal<(typeof answered.headers)['x-request-id'], string | undefined>>();
// @ts-expect-error not a Headers: index it by the lower-case name
answered.headers.get('x-request-id');
