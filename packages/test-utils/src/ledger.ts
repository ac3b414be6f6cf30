// What the mock's ledger (GET /_mock/ledger, over HTTP) says an account was charged: the proof
// of a client's spending that does not trust the client.

interface LedgerEntry {
  seq: number;
  accountId: string;
  kind: 'reservation' | 'charge' | 'refund' | 'purchase';
  reason: string;
  delta: number;
}

export interface Charged {
  /** Reservations and read charges less refunds: what the account paid for its calls. */
  net: number;
  /** The highest `net` reached at any entry, in the order the mock made them. */
  peak: number;
  /** The entries themselves, purchases left out. */
  entries: LedgerEntry[];
}

/** The account's charges from `GET {origin}/_mock/ledger`; purchases are not charges. */
export async function ledgerCharges(origin: string, accountId: string): Promise<Charged> {
  const answer = await fetch(`${origin}/_mock/ledger`);
  if (!answer.ok) throw new Error(`GET /_mock/ledger answered ${answer.status}`);
  const { entries, total, capacity } = (await answer.json()) as {
    entries: LedgerEntry[];
    total: number;
    capacity: number;
  };
  // A ledger that dropped entries cannot prove a peak.
  if (total > capacity) throw new Error(`the ledger kept ${capacity} of ${total} entries`);
  let net = 0;
  let peak = 0;
  const mine = entries
    .filter((entry) => entry.accountId === accountId && entry.kind !== 'purchase')
    .sort((a, b) => a.seq - b.seq);
  for (const entry of mine) {
    net -= entry.delta;
    peak = Math.max(peak, net);
  }
  return { net, peak, entries: mine };
}
