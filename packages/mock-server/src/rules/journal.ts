// What the mock was asked, for tests to inspect. Never the Authorization header or a key:
// only the account it resolved to.
import { type BoundedLog, createBoundedLog } from './bounded-log.js';

export interface JournalEntry {
  /** ISO time on the mock's clock. */
  at: string;
  method: string;
  path: string;
  status: number;
  accountId: string | null;
  idempotencyKey: string | null;
  /** The `X-Request-Id` the answer carried. */
  requestId: string;
}

const MAX_JOURNAL_ENTRIES = 1000;

/** As recorded: the time stays a number until someone reads the journal. */
export type JournalRecord = Omit<JournalEntry, 'at'> & { at: number };

export interface Journal {
  record(entry: JournalRecord): void;
  entries(): JournalEntry[];
  /** The bounded log underneath, for size checks. */
  readonly log: BoundedLog<JournalRecord>;
}

export function createJournal(): Journal {
  const log = createBoundedLog<JournalRecord>(MAX_JOURNAL_ENTRIES);
  return {
    record: (entry) => log.push(entry),
    entries: () => log.entries().map((entry) => ({ ...entry, at: new Date(entry.at).toISOString() })),
    log,
  };
}
