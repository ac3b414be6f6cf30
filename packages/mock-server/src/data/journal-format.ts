// How journal.log's lines are spelled, for the folder that writes them (folder.ts) and the start
// that reads them back (journal-read.ts): a checksum, a space and the JSON of a header or of one
// request's list of changes, then a newline.
import { createHash } from 'node:crypto';
import type { DataRecord } from './records.js';

/**
 * 2 added the seeded article (`article`). A start reads version 1 too, and goes on writing its
 * journal as version 2 (folder.ts); a mock of version 1 refuses a version 2 journal as not its own.
 */
export const JOURNAL_VERSION = 2;
/** The versions a start reads. */
export const JOURNAL_VERSIONS: readonly number[] = [1, 2];

const isText = (value: unknown) => typeof value === 'string';
const isTime = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
/** Credits, cents, counts: whole and never negative (a charge of -1,000,000 would grow a balance). */
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isSpan = (value: unknown) => isTime(value) && (value as number) >= 0;

/**
 * Whether `value` has the shape of a record this mock writes: each field of its kind there with
 * its type, and amounts never negative. A line that passes its checksum but not this was made
 * by hand (or by another program), and is refused as a foreign file is. Cheap: no lookups.
 */
export function isRecord(value: unknown, version: number = JOURNAL_VERSION): value is DataRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  switch (r.t) {
    case 'charge':
      return isTime(r.at) && isText(r.a) && isCount(r.c) && isText(r.r) && (r.p === null || isText(r.p));
    case 'job':
      return (
        isTime(r.at) &&
        isText(r.a) &&
        isText(r.p) &&
        isText(r.k) &&
        isText(r.key) &&
        isCount(r.c) &&
        isSpan(r.qt) &&
        isSpan(r.q) &&
        isSpan(r.r) &&
        (r.f === undefined || isText(r.f))
      );
    case 'key':
      return isTime(r.at) && isText(r.a) && isText(r.key) && isText(r.o) && isText(r.p) && isOutcome(r.out);
    case 'checkout':
      return isText(r.a) && isCount(r.c) && isCount(r.cents);
    case 'pay':
      return isTime(r.at) && isText(r.s);
    case 'advance':
      return isSpan(r.ms);
    case 'reset':
      return true;
    case 'skip':
      return isCount(r.ids);
    case 'article':
      return version >= 2 && isTime(r.at) && isText(r.p) && (r.x === undefined || isSeededText(r.x));
    default:
      return false;
  }
}

/** A seeded article's text: each field given of its type (a source's own fields are not looked into). */
function isSeededText(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const x = value as Record<string, unknown>;
  return (
    (x.title === undefined || isText(x.title)) &&
    (x.content === undefined || isText(x.content)) &&
    (x.sources === undefined ||
      (Array.isArray(x.sources) && x.sources.every((s) => typeof s === 'object' && s !== null))) &&
    (x.infobox === undefined || typeof x.infobox === 'object')
  );
}

function isOutcome(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const out = value as { job?: unknown; seed?: Record<string, unknown>; c?: unknown };
  if ('job' in out) return isText(out.job);
  const seed = out.seed;
  return (
    typeof seed === 'object' &&
    seed !== null &&
    isText(seed.profileId) &&
    isText(seed.articleId) &&
    isCount(seed.version) &&
    isTime(seed.createdAt) &&
    isTime(seed.updatedAt) &&
    isCount(out.c)
  );
}

export interface JournalHeader {
  /** One of JOURNAL_VERSIONS. */
  journal: number;
  generation: number;
  /** The id seed, for a folder with no snapshot yet. */
  seed: string;
}

export const checksum = (json: string) => createHash('sha256').update(json).digest('base64url').slice(0, 11);

export const line = (value: unknown) => {
  const json = JSON.stringify(value);
  return `${checksum(json)} ${json}\n`;
};
