// Each account's credit balance, and a record of every movement. The balance never goes
// below zero: a charge that cannot be paid is refused whole.
export type LedgerReason = 'read' | 'reserve' | 'refund' | 'purchase';

export interface LedgerEntry {
  at: number;
  accountId: string;
  delta: number;
  reason: LedgerReason;
  /** The job, checkout session or profile the movement belongs to. */
  ref: string;
  balance: number;
}

/** Recent movements kept for inspection; totals cover everything. */
const MAX_ENTRIES = 10_000;

export interface Ledger {
  balance(accountId: string): number;
  /** Takes `amount` if the balance covers it; false (and nothing taken) otherwise. */
  charge(accountId: string, amount: number, reason: 'read' | 'reserve', ref: string, at: number): boolean;
  add(accountId: string, amount: number, reason: 'refund' | 'purchase', ref: string, at: number): void;
  entries(): readonly LedgerEntry[];
}

export function createLedger(opening: ReadonlyMap<string, number>): Ledger {
  const balances = new Map(opening);
  const entries: LedgerEntry[] = [];

  function record(entry: LedgerEntry): void {
    entries.push(entry);
    // Trimmed in batches, so recording stays O(1) amortised.
    if (entries.length >= 2 * MAX_ENTRIES) entries.splice(0, MAX_ENTRIES);
  }

  return {
    balance: (accountId) => balances.get(accountId) ?? 0,
    charge(accountId, amount, reason, ref, at) {
      const balance = balances.get(accountId) ?? 0;
      if (balance < amount) return false;
      balances.set(accountId, balance - amount);
      record({ at, accountId, delta: -amount, reason, ref, balance: balance - amount });
      return true;
    },
    add(accountId, amount, reason, ref, at) {
      const balance = (balances.get(accountId) ?? 0) + amount;
      balances.set(accountId, balance);
      record({ at, accountId, delta: amount, reason, ref, balance });
    },
    entries: () => entries,
  };
}
