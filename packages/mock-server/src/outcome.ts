// What an operation answers, before any transport turns it into a Response.
import type { ErrorBody } from '@profile-articles/sdk/schemas';
import * as z from 'zod/mini';
import { en } from 'zod/v4/locales';

// zod/mini ships without messages to stay small; the mock is not size-bound, so its 422s
// say what is wrong in English. Only that locale is imported: `z.locales.en` would pull
// every locale into the bundled bin (400 KB), which costs start-up time. (A named import:
// the CommonJS en.cjs replaces module.exports, so a default import breaks the CJS build.)
z.config(en());

export interface Outcome {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** The one issue of a body that is not JSON at all. */
export const JSON_INVALID: ValidationIssue = {
  loc: ['body'],
  msg: 'Body is not valid JSON',
  type: 'json_invalid',
};

export const ok = (body: unknown, status = 200): Outcome => ({ status, body });

export function fail(status: number, detail: string, headers?: Record<string, string>): Outcome {
  const body: ErrorBody = { detail };
  return headers ? { status, body, headers } : { status, body };
}

export function invalid(issues: ValidationIssue[]): Outcome {
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
