// The records of a batch state file (JSON Lines, docs/bulk.md) and what they add up to.
export type Operation = 'generate' | 'update' | 'read';
export const OPERATIONS: readonly Operation[] = ['generate', 'update', 'read'];

/** How a profile ended. `succeeded`, `existing` (generate found an article) and `read` are finished. */
export type EndStatus =
  | 'succeeded'
  | 'existing'
  | 'read'
  | 'failed'
  | 'cancelled'
  | 'not_found'
  | 'conflict'
  | 'error';

export type StateRecord =
  | { type: 'batch'; operation: Operation; at: string }
  | { type: 'send'; profile_id: string; idempotency_key?: string; at: string }
  | { type: 'job'; profile_id: string; job_id: string; credits_charged: number; at: string }
  | {
      type: 'end';
      profile_id: string;
      status: EndStatus;
      credits_charged: number;
      job_id?: string;
      error?: string;
      at: string;
    };

export const FINISHED: ReadonlySet<EndStatus> = new Set(['succeeded', 'existing', 'read']);

/** The prices batch read from the account's terms before it started. */
export interface Prices {
  read: number;
  generation: number;
}

/**
 * What an ended profile counts for, toward --max-credits and in the state file: what the server
 * claims, but never below 0, and never below the price of what a paid status says was done (a
 * read, or the existing article generate read, or a job that succeeded). A server that claims 0
 * or less for paid work must not buy more of it; one that claims more is believed.
 */
export function countedCharge(status: EndStatus, claimed: number, prices: Prices): number {
  const floor =
    status === 'read' || status === 'existing' ? prices.read : status === 'succeeded' ? prices.generation : 0;
  return Math.max(0, floor, claimed);
}

export interface ProfileProgress {
  /** The last request recorded as about to be sent, and not yet ended. */
  open?: { idempotencyKey: string | undefined; jobId: string | undefined; sentAt: string };
  end?: Extract<StateRecord, { type: 'end' }>;
}

interface StateSummary {
  operation: Operation | undefined;
  profiles: Map<string, ProfileProgress>;
  /** Credits charged by every ended profile of every run. */
  creditsCharged: number;
}

/** Folds the records in order: a later `send` reopens a profile (a retry of a failed one). */
export function summarize(records: readonly StateRecord[]): StateSummary {
  const profiles = new Map<string, ProfileProgress>();
  let operation: Operation | undefined;
  let creditsCharged = 0;
  for (const record of records) {
    if (record.type === 'batch') {
      operation ??= record.operation;
      continue;
    }
    const progress = profiles.get(record.profile_id) ?? {};
    profiles.set(record.profile_id, progress);
    if (record.type === 'send') {
      progress.open = { idempotencyKey: record.idempotency_key, jobId: undefined, sentAt: record.at };
    } else if (record.type === 'job') {
      if (progress.open) progress.open.jobId = record.job_id;
    } else {
      delete progress.open;
      progress.end = record;
      // A charge is never below 0: a file an older release wrote may hold a server's negative claim.
      creditsCharged += Math.max(0, record.credits_charged);
    }
  }
  return { operation, profiles, creditsCharged };
}

// The first line batch writes: `{"type":"batch","operation":OP,"at":TIME}`, TIME from
// toISOString (24 characters; any string of up to AT_MAX is taken, as hand-made files have).
const HEADS = OPERATIONS.map((operation) => `{"type":"batch","operation":"${operation}","at":"`);
const AT_MAX = 64;

/** The longest first line a state file can have: more need not be read to know whose file it is. */
export const FIRST_LINE_MAX = Math.max(...HEADS.map((head) => head.length)) + AT_MAX + 2;

// The rest of a torn line after its head: a prefix of a JSON string's content, maybe its
// closing quote, maybe the closing brace.
const TORN_REST = /^(?:[^"\\\u0000-\u001f]|\\.)*(?:\\|"\}?)?$/;

function isBatchRecord(line: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { type, operation, at } = value as Record<string, unknown>;
  return (
    Object.keys(value).join() === 'type,operation,at' &&
    type === 'batch' &&
    OPERATIONS.includes(operation as Operation) &&
    typeof at === 'string' &&
    at.length <= AT_MAX
  );
}

function isTornBatchRecord(text: string): boolean {
  if (text.length > FIRST_LINE_MAX) return false;
  return HEADS.some((head) =>
    text.length <= head.length
      ? head.startsWith(text)
      : text.startsWith(head) && TORN_REST.test(text.slice(head.length)),
  );
}

/**
 * Whether a file starting with `first` is a state file: its first line is the `batch` record
 * (`complete`: a newline followed it), or a torn prefix of one (the file's only text). Anything
 * else is someone else's file, which batch must never cut or append to.
 */
export function isOwnFirstLine(first: string, complete: boolean): boolean {
  return complete ? first.length <= FIRST_LINE_MAX && isBatchRecord(first) : isTornBatchRecord(first);
}
