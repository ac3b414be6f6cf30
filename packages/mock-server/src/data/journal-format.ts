// How journal.log's lines are spelled, for the folder that writes them (folder.ts) and the start
// that reads them back (journal-read.ts): a checksum, a space and the JSON of a header or of one
// request's list of changes, then a newline.
import { createHash } from 'node:crypto';
import type { DataRecord } from './records.js';

export const JOURNAL_VERSION = 1;

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
export function isRecord(value: unknown): value is DataRecord {
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
    default:
      return false;
  }
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
  journal: typeof JOURNAL_VERSION;
  generation: number;
  /** The id seed, for a folder with no snapshot yet. */
  seed: string;
}

export const checksum = (json: string) => createHash('sha256').update(json).digest('base64url').slice(0, 11);

export const line = (value: unknown) => {
  const json = JSON.stringify(value);
  return `${checksum(json)} ${json}\n`;
};
