// How journal.log's lines are spelled, for the folder that writes them (folder.ts) and the start
// that reads them back (journal-read.ts): a checksum, a space and the JSON of a header or of one
// request's list of changes, then a newline.
import { createHash } from 'node:crypto';
import type { DataRecord } from './records.js';

export const JOURNAL_VERSION = 1;

export const RECORD_KINDS: ReadonlySet<DataRecord['t']> = new Set([
  'charge',
  'job',
  'key',
  'checkout',
  'pay',
  'advance',
  'reset',
  'skip',
]);

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
