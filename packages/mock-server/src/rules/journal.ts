// What the mock was asked, for tests to inspect. Never the Authorization header or a key:
// only the account it resolved to.
export interface JournalEntry {
  /** ISO time on the mock's clock. */
  at: string;
  method: string;
  path: string;
  status: number;
  accountId: string | null;
  idempotencyKey: string | null;
}

const MAX_ENTRIES = 1000;

/** As recorded: the time stays a number until someone reads the journal. */
export type JournalRecord = Omit<JournalEntry, 'at'> & { at: number };

export interface Journal {
  record(entry: JournalRecord): void;
  entries(): JournalEntry[];
}

export function createJournal(): Journal {
  let entries: JournalRecord[] = [];
  return {
    record(entry) {
      entries.push(entry);
      // Trimmed in batches, so recording stays O(1) amortised.
      if (entries.length >= 2 * MAX_ENTRIES) entries = entries.slice(-MAX_ENTRIES);
    },
    entries: () =>
      entries.slice(-MAX_ENTRIES).map((entry) => ({ ...entry, at: new Date(entry.at).toISOString() })),
  };
}
