// A start reading journal.log back. A crash can only tear the end of the file: the last write
// (a group commit of whole lines) stopped part way. So only a torn tail is cut: the bytes after
// the last newline, or lines that fail their checksum with no good line after them. A bad line
// with a good one after it is damage of another kind (a flipped byte, a disk or an editor):
// cutting there would drop every answered request after it, so the start is refused, naming the
// offset, unless --data-recover asks to keep every readable record. A file whose first line is
// not this mock's header, or that another folder wrote, is refused as a foreign snapshot is.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config-error.js';
import { idAt } from './ids.js';
import { checksum, isRecord, JOURNAL_VERSION, type JournalHeader, line } from './journal-format.js';
import type { DataRecord } from './records.js';
import type { Snapshot } from './snapshot.js';

export interface JournalRead {
  header?: JournalHeader;
  /** Every record of every good line, in order. */
  records: DataRecord[];
  /** Where the last good line ends: what is after it is a torn tail. */
  goodBytes: number;
  /** The first bad line that has a good one after it. */
  damagedAt?: number;
  /** Every whole line after the header, good or bad, as written: what --data-recover reads again. */
  lines: Array<{ bytes: Buffer; good: boolean }>;
  /** The header's line as written. */
  headerLine?: Buffer;
  /** Not a file this mock wrote: its first line is not a journal header. */
  foreign: boolean;
  /** Where a line that passes its checksum holds a record of a shape this mock never writes. */
  misshapenAt?: number;
}

/** One line's value, or undefined when it fails its checksum or does not parse. */
function parseLine(text: Buffer, start: number, end: number): unknown {
  const line = text.toString('utf8', start, end);
  const space = line.indexOf(' ');
  if (space < 0) return undefined;
  const json = line.slice(space + 1);
  if (line.slice(0, space) !== checksum(json)) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

const isHeader = (value: unknown): value is JournalHeader =>
  (value as JournalHeader | undefined)?.journal === JOURNAL_VERSION &&
  typeof (value as JournalHeader).seed === 'string' &&
  Number.isSafeInteger((value as JournalHeader).generation);

const isRecordList = (value: unknown): value is DataRecord[] => Array.isArray(value) && value.every(isRecord);

export function readJournal(text: Buffer): JournalRead {
  const read: JournalRead = { records: [], goodBytes: 0, lines: [], foreign: false };
  if (text.length === 0) return read;
  let offset = 0;
  let badSince: number | undefined;
  for (;;) {
    const end = text.indexOf(10, offset);
    if (end < 0) break; // no newline: a torn tail
    const value = parseLine(text, offset, end);
    if (!read.header) {
      // Written whole by a rename before any record: never torn, so anything else is not ours.
      if (!isHeader(value)) return { ...read, foreign: true };
      read.header = value;
      read.headerLine = text.subarray(offset, end + 1);
    } else if (value === undefined) {
      badSince ??= offset;
      read.lines.push({ bytes: text.subarray(offset, end + 1), good: false });
      offset = end + 1;
      continue;
    } else if (!isRecordList(value)) {
      // Its checksum holds, so no crash or flipped byte made it: a hand-made record.
      return { ...read, misshapenAt: offset };
    } else {
      if (badSince !== undefined) read.damagedAt ??= badSince;
      badSince = undefined;
      read.records.push(...value);
      read.lines.push({ bytes: text.subarray(offset, end + 1), good: true });
    }
    offset = end + 1;
    read.goodBytes = offset;
  }
  if (!read.header) read.foreign = true;
  return read;
}

const notOurs = (dir: string, why: string) =>
  new ConfigError(
    `The data folder's journal.log in ${dir} is not one this mock wrote (${why}); move it away to start afresh, or give this mock another --data folder`,
  );

/**
 * Refuses a journal that is not this folder's: another program's file, another folder's journal
 * (its id seed is not the snapshot's), or one that follows a snapshot that is not there.
 */
export function checkJournalIsOurs(dir: string, journal: JournalRead, snapshot: Snapshot | undefined): void {
  if (journal.foreign) throw notOurs(dir, 'its first line is not a journal header');
  if (journal.misshapenAt !== undefined)
    throw notOurs(dir, `the record at byte ${journal.misshapenAt} is not of a shape this mock writes`);
  const { header } = journal;
  if (!header) return;
  if (snapshot && header.seed !== snapshot.ids.seed)
    throw notOurs(dir, "it belongs to another data folder: its id seed is not snapshot.json's");
  if (header.generation > (snapshot?.generation ?? 0))
    throw notOurs(
      dir,
      `it follows snapshot generation ${header.generation}, ${snapshot ? `and snapshot.json is generation ${snapshot.generation}` : 'and there is no snapshot.json'}`,
    );
}

/** Records that take an id from the folder's counter (data/ids.ts), in the order they take it. */
const takesId = (change: DataRecord) => change.t === 'job' || change.t === 'checkout';

/**
 * How many ids the damaged lines before `records` had taken: exactly, when the line names its
 * job's id (a generate's or an update's key record), else the job and checkout records the
 * damaged text still spells.
 */
function idsTaken(seed: string, counter: number, records: DataRecord[], damaged: Buffer[]): number {
  let before = 0;
  for (const change of records) {
    if (change.t === 'key' && 'job' in change.out && before > 0) {
      const id = change.out.job;
      for (let skipped = 0; skipped <= 4096; skipped++)
        if (idAt(seed, counter + skipped + before - 1) === id) return skipped;
      break;
    }
    if (takesId(change)) before++;
  }
  return damaged.reduce(
    (sum, bytes) => sum + (bytes.toString('latin1').match(/"t":"(job|checkout)"/g)?.length ?? 0),
    0,
  );
}

/** The journal's readable lines, with a skip record where damaged ones took ids. */
function recoveredText(journal: JournalRead, seed: string, counter: number): Buffer {
  const out: Buffer[] = [journal.headerLine as Buffer];
  let damaged: Buffer[] = [];
  for (const { bytes, good } of journal.lines) {
    if (!good) {
      damaged.push(bytes);
      continue;
    }
    const records = JSON.parse(bytes.toString('utf8', bytes.indexOf(32) + 1)) as DataRecord[];
    if (damaged.length) {
      const ids = idsTaken(seed, counter, records, damaged);
      if (ids > 0) out.push(Buffer.from(line([{ t: 'skip', ids }])));
      counter += ids;
      damaged = [];
    }
    out.push(bytes);
    counter += records.filter(takesId).length;
  }
  return Buffer.concat(out);
}

/**
 * A damaged record before the journal's end: refused, or with --data-recover the damaged file
 * kept beside as journal.log.bad-<ISO time> and replaced by its readable lines (a torn tail
 * after them dropped). Returns the journal as it now is on disk.
 */
export function handleDamage(
  dir: string,
  journal: JournalRead,
  snapshot: Snapshot | undefined,
  recover: boolean,
  replace: (text: string) => void,
  onNote: (line: string) => void,
): JournalRead {
  if (journal.damagedAt === undefined || !journal.header) return journal;
  if (!recover)
    throw new ConfigError(
      `The data folder's journal.log in ${dir} has a damaged record at byte ${journal.damagedAt}, with whole records after it: ` +
        'not a write that a stop cut short, so this mock will not cut the records after it. ' +
        'Start once with --data-recover to keep every readable record (the damaged file is kept as journal.log.bad-<time>).',
    );
  const kept = `journal.log.bad-${new Date().toISOString()}`;
  // A link, not a rename: the damaged file keeps its name until its readable lines replace it,
  // so a crash meanwhile leaves a folder that this start would meet again. A link never
  // replaces a file that has the name already.
  fs.linkSync(join(dir, 'journal.log'), join(dir, kept));
  const text = recoveredText(journal, journal.header.seed, snapshot?.ids.counter ?? 0);
  replace(text.toString('utf8'));
  const recovered = readJournal(text);
  const count = journal.lines.filter((entry) => entry.good).length;
  onNote(
    `Data folder: journal.log had a damaged record at byte ${journal.damagedAt}; kept ${count} readable records ` +
      `and moved the damaged file to ${kept} in ${dir} (--data-recover)`,
  );
  return recovered;
}
