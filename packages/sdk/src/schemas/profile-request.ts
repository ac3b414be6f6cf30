import * as z from 'zod/mini';
import { MAX_IDENTIFIER_CHARS } from './identifier-limit.js';
import type { SameShape } from './same-shape.js';

// The interface bounds the profile slug and the Idempotency-Key alike: 1 to 200 characters.
// Characters are code points, not UTF-16 units. A lone surrogate cannot be written as UTF-8,
// so no real server could store it. Each rule says its 422 `type`, which the mock reports.
const LONE_SURROGATE = /\p{Cs}/u;

/** Code points in `text`, counting no further than `limit + 1`. */
function codePoints(text: string, limit: number): number {
  let count = 0;
  for (const _ of text) if (++count > limit) break;
  return count;
}

const rule = (test: (value: string) => boolean, message: string, type: string) =>
  z.refine<string>(test, { message, params: { type }, abort: true });

function boundedIdentifier(...more: Array<z.core.$ZodCheck<string>>) {
  return z.string().check(
    rule(
      (s) => !LONE_SURROGATE.test(s),
      'Must be well-formed Unicode (no lone surrogates)',
      'string_unicode',
    ),
    rule((s) => s.length > 0, 'Must be at least 1 character', 'string_too_short'),
    rule(
      (s) => codePoints(s, MAX_IDENTIFIER_CHARS) <= MAX_IDENTIFIER_CHARS,
      `Must be at most ${MAX_IDENTIFIER_CHARS} characters`,
      'string_too_long',
    ),
    ...more,
  );
  // Refinements have no JSON Schema form: identifier-bounds.ts gives the OpenAPI document the
  // bounds, off the SDK's entry (zod's global registry would add its code to every bundle).
}

/** The profile slug: the last path segment of the profile's address. */
export const ProfileIdSchema = boundedIdentifier(
  // URL normalisation removes `.` and `..`, so such an article could never be read.
  rule((s) => s !== '.' && s !== '..', 'Cannot be "." or ".." (URLs normalise them away)', 'value_error'),
);

/** Body of `POST /api/v1/articles` (generate). No other properties are allowed. */
export interface ProfileRequest {
  /** The profile slug: the last path segment of the profile's address, 1 to 200 characters. */
  profile_id: string;
}

export const ProfileRequestSchema = z.strictObject({
  profile_id: ProfileIdSchema,
});

const _request: SameShape<ProfileRequest, z.output<typeof ProfileRequestSchema>> = true;

/** The `Idempotency-Key` header of generate and update. */
export const IdempotencyKeySchema = boundedIdentifier();
