// What the mock accepts as a profile id or an Idempotency-Key, beyond "a string". The
// interface counts characters, so lengths are code points, not UTF-16 units (the SDK
// counts the same way). A lone surrogate cannot be written as UTF-8, so no real server
// could store it; `.` and `..` are removed by URL normalisation, so no article of theirs
// could ever be read.
import type { ValidationIssue } from '../outcome.js';

export const MAX_IDENTIFIER_CHARS = 200;

const LONE_SURROGATE = /\p{Cs}/u;

/** Code points in `text`, counting no further than `limit + 1`. */
function codePoints(text: string, limit: number): number {
  let count = 0;
  for (const _ of text) if (++count > limit) break;
  return count;
}

/** The problem with a 1..200-character identifier, or undefined. */
export function identifierIssue(loc: ValidationIssue['loc'], value: string): ValidationIssue | undefined {
  if (LONE_SURROGATE.test(value))
    return { loc, msg: 'Must be well-formed Unicode (no lone surrogates)', type: 'string_unicode' };
  const length = codePoints(value, MAX_IDENTIFIER_CHARS);
  if (length < 1) return { loc, msg: 'Must be at least 1 character', type: 'string_too_short' };
  if (length > MAX_IDENTIFIER_CHARS)
    return { loc, msg: `Must be at most ${MAX_IDENTIFIER_CHARS} characters`, type: 'string_too_long' };
  return undefined;
}

/** An identifier issue, or `.` / `..`, which URL normalisation would make unreadable. */
export function profileIdIssue(loc: ValidationIssue['loc'], value: string): ValidationIssue | undefined {
  if (value === '.' || value === '..')
    return { loc, msg: 'Cannot be "." or ".." (URLs normalise them away)', type: 'value_error' };
  return identifierIssue(loc, value);
}
