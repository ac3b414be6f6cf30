// What an operation answers, before any transport turns it into a Response.
import type { SuccessStatus } from '@profile-articles/sdk/internal';
import type { ValidationIssue as AnyValidationIssue, ErrorBody } from '@profile-articles/sdk/schemas';
import type * as z from 'zod/mini';
import { useEnglishMessages } from '../rules/zod-english.js';

useEnglishMessages();

/** A success: the body `T` the contract gives status `S`. */
export interface Success<T, S extends SuccessStatus = 200> {
  readonly status: S;
  readonly body: T;
  readonly headers?: undefined;
}

/** An error: `{detail}` with status `S` (an operation names the statuses it may answer). */
export interface Failure<S extends number = number> {
  readonly status: S;
  readonly body: ErrorBody;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What an operation answers: `T` with a success status `S`, or `{detail}` with one of the error
 * statuses `E`. Status and body are tied, so the contract table can check them (see
 * routes/endpoint-outcome.ts); `E` is `never` for an operation that cannot fail.
 */
export type Outcome<T, S extends SuccessStatus = 200, E extends number = never> = Success<T, S> | Failure<E>;

/** Any answer, as `respond` writes it. */
export type AnyOutcome = Success<unknown, SuccessStatus> | Failure;

/**
 * One entry of a 422's `detail`: the SDK's error-body entry, with the three fields the mock
 * always sends. (A mapped type, not an interface: it must fit ErrorBody's open entries.)
 */
export type ValidationIssue = Required<Pick<AnyValidationIssue, 'loc' | 'msg' | 'type'>>;
/** The one issue of a body that is not JSON at all. */
export const JSON_INVALID: ValidationIssue = {
  loc: ['body'],
  msg: 'Body is not valid JSON',
  type: 'json_invalid',
};

export function ok<T>(body: T): Success<T>;
export function ok<T, S extends SuccessStatus>(body: T, status: S): Success<T, S>;
export function ok<T>(body: T, status: SuccessStatus = 200): Success<T, SuccessStatus> {
  return { status, body };
}

export function fail<S extends number>(
  status: S,
  detail: string,
  headers?: Readonly<Record<string, string>>,
): Failure<S> {
  const body: ErrorBody = { detail };
  return headers ? { status, body, headers } : { status, body };
}

export function invalid(issues: ValidationIssue[]): Failure<422> {
  return { status: 422, body: { detail: issues } };
}

/**
 * Parses `value` with `schema`: the data, or its problems as 422 entries. `reportInput` lets
 * a wrong type (`"10"` for a number) be told apart from a missing field.
 */
export function parseInput<T>(
  schema: z.ZodMiniType<T>,
  value: unknown,
  where: 'body' | 'path' | 'header',
): { ok: true; data: T } | { ok: false; issues: ValidationIssue[] } {
  const parsed = schema.safeParse(value, { reportInput: true });
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, issues: issuesFromZod(where, parsed.error.issues) };
}

/** zod issues as the `{loc, msg, type}` entries of a 422, under `body`, `path` or `header`. */
function issuesFromZod(
  where: 'body' | 'path' | 'header',
  issues: ReadonlyArray<{
    code: string;
    path: PropertyKey[];
    message: string;
    input?: unknown;
    keys?: string[];
    /** A table rule's own 422 `type` (see the SDK's profile-request.ts). */
    params?: Record<string, unknown> | undefined;
  }>,
): ValidationIssue[] {
  return issues.flatMap((issue) => {
    const loc = [where, ...issue.path.map((part) => (typeof part === 'number' ? part : String(part)))];
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      return issue.keys.map((key) => ({
        loc: [...loc, key],
        msg: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
      }));
    }
    const ruleType = typeof issue.params?.type === 'string' ? issue.params.type : undefined;
    const type =
      ruleType ?? (issue.code === 'invalid_type' && issue.input === undefined ? 'missing' : issue.code);
    const msg = type === 'missing' ? 'Field required' : issue.message;
    return [{ loc, msg, type }];
  });
}
