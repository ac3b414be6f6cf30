// A start reading journal.log back. A crash can only tear the end of the file: the last write
// (a group commit of whole lines) stopped part way. So only a torn tail is cut: the bytes after
// the last newline, or lines that fail their checksum with no good line after them. A bad line
// with a good one after it is damage of another kind (a flipped byte, a disk or an editor):
// cutting there would drop every answered request after it, so the start is refused, naming the
// offset, unless --data-recover asks to keep every readable record. A file whose first line is
// not this mock's header, or that another folder wrote, is refused as a foreign snapshot is.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../rules/config-error.js';
import { idAt } from './ids.js';
import { checksum, isRecord, JOURNAL_VERSIONS, type JournalHeader, line } from './journal-format.js';
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
  JOURNAL_VERSIONS.includes((value as JournalHeader | undefined)?.journal as number) &&
  typeof (value as JournalHeader).seed === 'string' &&
  Number.isSafeInteger((value as JournalHeader).generation);

const isRecordList = (value: unknown, version: number): value is DataRecord[] =>
  Array.isArray(value) && value.every((record) => isRecord(record, version));

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
    } else if (!isRecordList(value, read.header.journal)) {
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
 * The fewest bytes a record that takes an id fills in a line: a checkout's
 * `{"t":"checkout","a":"","c":0,"cents":0}` (a job's is longer). So damaged bytes took at most
 * their length over this many ids, whatever a flipped byte did to their spelling.
 */
const MIN_ID_RECORD_BYTES = 39;

/** The counter position whose id is `id` (a job's id or a checkout's session id), searched from `from`. */
function positionOf(seed: string, id: string, from: number, span: number): number | undefined {
  const uuid = id.startsWith('cs_test_')
    ? id.slice(8).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')
    : id;
  for (let at = from; at <= from + span; at++) if (idAt(seed, at) === uuid) return at;
  return undefined;
}

/**
 * How many ids the damaged lines before `later` (the good records up to the next damage) had
 * taken. Exact when a later record names an id taken after the damage: a key record names the
 * job just before it; a pay names a session, which is one of the later checkouts (used when only
 * one fits). Else undefined: the caller guesses from the damaged text and skips new ids past
 * every id the damaged bytes could have taken.
 */
function idsTaken(seed: string, counter: number, later: DataRecord[], most: number): number | undefined {
  let before = 0;
  /** The takers' positions among `later` (from the damage on) that are checkouts. */
  const checkouts: number[] = [];
  for (const change of later) {
    if (change.t === 'key' && 'job' in change.out && before > 0) {
      const at = positionOf(seed, change.out.job, counter + before - 1, most);
      if (at !== undefined) return at - counter - (before - 1);
    }
    if (change.t === 'pay' && checkouts.length > 0) {
      const at = positionOf(seed, change.s, counter, most + before);
      if (at !== undefined) {
        const fits = checkouts
          .map((index) => at - counter - index)
          .filter((skip) => skip >= 0 && skip <= most);
        if (fits.length === 1) return fits[0];
      }
    }
    if (change.t === 'checkout') checkouts.push(before);
    if (takesId(change)) before++;
  }
  return undefined;
}

/** The journal's readable lines, with a skip record where damaged ones took ids. */
function recoveredText(
  journal: JournalRead,
  seed: string,
  counter: number,
): { text: Buffer; guessed: number } {
  const out: Buffer[] = [journal.headerLine as Buffer];
  const parsed = journal.lines.map(({ bytes, good }) => ({
    bytes,
    good,
    records: good ? (JSON.parse(bytes.toString('utf8', bytes.indexOf(32) + 1)) as DataRecord[]) : [],
  }));
  /** Ids that may have been taken beyond those skipped: new ids skip them at the end. */
  let margin = 0;
  let guessed = 0;
  let damaged: Buffer[] = [];
  for (const [index, { bytes, good, records }] of parsed.entries()) {
    if (!good) {
      damaged.push(bytes);
      continue;
    }
    if (damaged.length) {
      const later: DataRecord[] = [];
      for (const next of parsed.slice(index)) {
        if (!next.good) break;
        later.push(...next.records);
      }
      const bytesLost = damaged.reduce((sum, part) => sum + part.length, 0);
      const most = Math.ceil(bytesLost / MIN_ID_RECORD_BYTES);
      let ids = idsTaken(seed, counter, later, most);
      if (ids === undefined) {
        // No later record says: what the damaged text still spells, and a margin at the end.
        ids = damaged.reduce(
          (sum, part) => sum + (part.toString('latin1').match(/"t":"(job|checkout)"/g)?.length ?? 0),
          0,
        );
        margin += most - Math.min(ids, most);
        guessed++;
      }
      if (ids > 0) out.push(Buffer.from(line([{ t: 'skip', ids }])));
      counter += ids;
      damaged = [];
    }
    out.push(bytes);
    counter += records.filter(takesId).length;
  }
  if (margin > 0) out.push(Buffer.from(line([{ t: 'skip', ids: margin }])));
  return { text: Buffer.concat(out), guessed: margin > 0 ? guessed : 0 };
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
  const { text, guessed } = recoveredText(journal, journal.header.seed, snapshot?.ids.counter ?? 0);
  replace(text.toString('utf8'));
  const recovered = readJournal(text);
  const count = journal.lines.filter((entry) => entry.good).length;
  onNote(
    `Data folder: journal.log had a damaged record at byte ${journal.damagedAt}; kept ${count} readable records ` +
      `and moved the damaged file to ${kept} in ${dir} (--data-recover)`,
  );
  if (guessed > 0)
    onNote(
      `Data folder: no record after the damage names an id, so how many ids the damaged records took is a guess: ` +
        'a job or checkout recorded after them may have another id than the one first answered; new ids skipped past every id they could have taken, so none is handed out twice',
    );
  return recovered;
}
