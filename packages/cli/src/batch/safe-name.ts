// File names for --out: a profile id made safe for any file system.
//
// Lowercase letters, digits, `-` and `_` are kept; anything else (upper case, `/`, `.`, spaces,
// non-ASCII) becomes `_`, and the result is cut to 80 characters. If that changed the id at all,
// or left a name Windows reserves, `-` and the first 10 hex digits of the id's SHA-256 are
// appended, so two ids never share a name, not even on a case-insensitive file system
// (`Ada` and `ada` become `ada-<hash>` and `ada`).
import { createHash } from 'node:crypto';

const MAX_STEM = 80;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/;

export function safeName(profileId: string): string {
  const stem = profileId.replace(/[^a-z0-9_-]/g, '_').slice(0, MAX_STEM);
  if (stem === profileId && !WINDOWS_RESERVED.test(stem)) return stem;
  const hash = createHash('sha256').update(profileId).digest('hex').slice(0, 10);
  return `${stem}-${hash}`;
}
