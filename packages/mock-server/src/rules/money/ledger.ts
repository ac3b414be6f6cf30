// Each account's credit balance, and a record of every movement. The balance never goes
// below zero: a charge that cannot be paid is refused whole.
//
// Four kinds of entry: a `reservation` takes a job's credits when it starts; the job's
// `charge` (delta 0) keeps them when it succeeds, or its `refund` gives them back when it
// fails or is cancelled; a read's `charge` takes its credit at once; a `purchase` adds a
// paid checkout's credits. Totals per account cover every movement ever made, while the
// entries themselves are the most recent ones only (a bounded log).
import { type BoundedLog, createColumnarLog } from '../bounded-log.js';

export type LedgerKind = 'reservation' | 'charge' | 'refund' | 'purchase';

/** Why the credits moved, in one word or two. */
export type LedgerReason =
  | 'generate'
  | 'update'
  | 'read'
  | 'generate-read'
  | 'job-succeeded'
  | 'job-failed'
  | 'job-cancelled'
  | 'checkout-paid';

export interface LedgerMeta {
  reason: LedgerReason;
  jobId?: string;
  profileId?: string;
  sessionId?: string;
}

export interface LedgerEntry {
  /** 1, 2, 3…: the position among every movement ever made. */
  seq: number;
  at: number;
  accountId: string;
  kind: LedgerKind;
  reason: LedgerReason;
  /** Credits involved: positive, even for a job's charge whose delta is 0. */
  credits: number;
  /** How the balance moved. */
  delta: number;
  balance: number;
  jobId: string | null;
  profileId: string | null;
  sessionId: string | null;
}

export interface LedgerTotals {
  opening: number;
  purchased: number;
  reserved: number;
  refunded: number;
  /** Credits kept by succeeded jobs. */
  jobCharges: number;
  /** Credits taken by reads (a generate answered with the existing article included). */
  readCharges: number;
  balance: number;
}

const MAX_LEDGER_ENTRIES = 10_000;

export interface Ledger {
  balance(accountId: string): number;
  /** Takes `amount` if the balance covers it; false (and nothing taken) otherwise. */
  take(
    accountId: string,
    amount: number,
    kind: 'reservation' | 'charge',
    meta: LedgerMeta,
    at: number,
  ): boolean;
  add(accountId: string, amount: number, kind: 'refund' | 'purchase', meta: LedgerMeta, at: number): void;
  /** A succeeded job keeps its reserved credits: recorded, no balance change. */
  settle(accountId: string, amount: number, meta: LedgerMeta, at: number): void;
  entries(): LedgerEntry[];
  totals(accountId: string): LedgerTotals;
  accountIds(): string[];
  readonly log: BoundedLog<LedgerEntry>;
  /** What --data saves: every account's totals and the entries kept. */
  dump(): LedgerDump;
  /** Back to a dump; an account the dump does not know keeps its configured opening balance. */
  load(dump: LedgerDump): void;
}

export interface LedgerDump {
  totals: Array<[string, LedgerTotals]>;
  entries: LedgerEntry[];
  total: number;
}

export function createLedger(opening: ReadonlyMap<string, number>): Ledger {
  const totals = new Map<string, LedgerTotals>();
  // In JSON's order: the ledger's entries are answered as they come back.
  const log = createColumnarLog<LedgerEntry>(MAX_LEDGER_ENTRIES, [
    'seq',
    'at',
    'accountId',
    'kind',
    'reason',
    'credits',
    'delta',
    'balance',
    'jobId',
    'profileId',
    'sessionId',
  ]);
  const open = (accountId: string, credits: number): LedgerTotals => {
    const fresh: LedgerTotals = {
      opening: credits,
      purchased: 0,
      reserved: 0,
      refunded: 0,
      jobCharges: 0,
      readCharges: 0,
      balance: credits,
    };
    totals.set(accountId, fresh);
    return fresh;
  };
  for (const [accountId, credits] of opening) open(accountId, credits);
  const of = (accountId: string) => totals.get(accountId) ?? open(accountId, 0);

  function record(
    accountId: string,
    kind: LedgerKind,
    credits: number,
    delta: number,
    meta: LedgerMeta,
    at: number,
  ): void {
    const account = of(accountId);
    account.balance += delta;
    log.push({
      seq: log.total + 1,
      at,
      accountId,
      kind,
      reason: meta.reason,
      credits,
      delta,
      balance: account.balance,
      jobId: meta.jobId ?? null,
      profileId: meta.profileId ?? null,
      sessionId: meta.sessionId ?? null,
    });
  }

  return {
    balance: (accountId) => totals.get(accountId)?.balance ?? 0,
    take(accountId, amount, kind, meta, at) {
      const account = of(accountId);
      if (account.balance < amount) return false;
      if (kind === 'reservation') account.reserved += amount;
      else account.readCharges += amount;
      record(accountId, kind, amount, -amount, meta, at);
      return true;
    },
    add(accountId, amount, kind, meta, at) {
      const account = of(accountId);
      if (kind === 'refund') account.refunded += amount;
      else account.purchased += amount;
      record(accountId, kind, amount, amount, meta, at);
    },
    settle(accountId, amount, meta, at) {
      of(accountId).jobCharges += amount;
      record(accountId, 'charge', amount, 0, meta, at);
    },
    entries: () => log.entries(),
    totals: (accountId) => ({ ...of(accountId) }),
    accountIds: () => [...totals.keys()],
    log,
    dump: () => ({ totals: [...totals], entries: log.entries(), total: log.total }),
    load(dump) {
      for (const [accountId, saved] of dump.totals) totals.set(accountId, { ...saved });
      log.restore(dump.entries, dump.total);
    },
  };
}
