// What the mock was asked, for tests to inspect. Never the Authorization header or a key:
// only the account it resolved to. With config `journal.bodies`, each entry also keeps the
// request's and the answer's body, redacted and cut (body-excerpt.ts).
import type { BodyExcerpt } from './body-excerpt.js';
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
  /** The outcome stub that answered the request, if one did (`POST /_mock/stubs`). */
  stubId?: string;
  /** Only with config `journal.bodies`: null when the request had no body. */
  requestBody?: BodyExcerpt | null;
  /** Only with config `journal.bodies`: null when the answer had no body. */
  responseBody?: BodyExcerpt | null;
}

/** Filters of `GET /_mock/requests` and `service.journal(query)`; every one given must match. */
export interface JournalQuery {
  /** Account id (`accountId`). */
  account?: string;
  /** HTTP method, any case. */
  method?: string;
  /** A prefix of the path. */
  path?: string;
  status?: number;
  idempotencyKey?: string;
  requestId?: string;
  /** Entries at or after this time of the mock's clock (ms since the epoch). */
  since?: number;
  /** At most this many entries (the newest). */
  limit?: number;
}

/** Every key of JournalQuery, for a filter object given in process (rules/known-keys.ts). */
export const JOURNAL_FILTERS = [
  'account',
  'method',
  'path',
  'status',
  'idempotencyKey',
  'requestId',
  'since',
  'limit',
] as const satisfies readonly (keyof JournalQuery)[];

export const MAX_JOURNAL_ENTRIES = 1000;

/** As recorded: the time stays a number until someone reads the journal. */
export type JournalRecord = Omit<JournalEntry, 'at'> & { at: number };

export interface Journal {
  record(entry: JournalRecord): void;
  /** Newest first, filtered by `query`. */
  entries(query?: JournalQuery): JournalEntry[];
  /** The bounded log underneath, for size checks. */
  readonly log: BoundedLog<JournalRecord>;
}

function matches(entry: JournalRecord, query: JournalQuery, method: string | undefined): boolean {
  return (
    (query.account === undefined || entry.accountId === query.account) &&
    (method === undefined || entry.method === method) &&
    (query.path === undefined || entry.path.startsWith(query.path)) &&
    (query.status === undefined || entry.status === query.status) &&
    (query.idempotencyKey === undefined || entry.idempotencyKey === query.idempotencyKey) &&
    (query.requestId === undefined || entry.requestId === query.requestId) &&
    (query.since === undefined || entry.at >= query.since)
  );
}

/** `onRecord` hears of every entry, also those the log has since dropped (the request counters). */
export function createJournal(onRecord?: (entry: JournalRecord) => void): Journal {
  const log = createBoundedLog<JournalRecord>(MAX_JOURNAL_ENTRIES);
  return {
    record: onRecord
      ? (entry) => {
          log.push(entry);
          onRecord(entry);
        }
      : (entry) => log.push(entry),
    entries: (query = {}) => {
      const method = query.method?.toUpperCase();
      const limit = query.limit ?? MAX_JOURNAL_ENTRIES;
      const found: JournalEntry[] = [];
      const all = log.entries();
      for (let i = all.length - 1; i >= 0 && found.length < limit; i--) {
        const entry = all[i] as JournalRecord;
        if (matches(entry, query, method)) found.push({ ...entry, at: new Date(entry.at).toISOString() });
      }
      return found;
    },
    log,
  };
}
