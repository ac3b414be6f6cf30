// What the control endpoints show of the state: the credit ledger (GET /_mock/ledger) and
// the sizes and counters of GET /_mock/stats. Never a key: accounts by id only.
import type { MockState } from './state.js';

const iso = (at: number) => new Date(at).toISOString();

export type LedgerReport = ReturnType<typeof ledgerReport>;
export type StatsReport = ReturnType<typeof statsReport>;

export function ledgerReport(state: MockState) {
  const { ledger } = state;
  return {
    accounts: ledger.accountIds().map((accountId) => {
      const totals = ledger.totals(accountId);
      const refusals = state.refusals.of(accountId);
      return {
        accountId,
        ...totals,
        /** Reserved by jobs still active. */
        held: totals.reserved - totals.refunded - totals.jobCharges,
        rateLimited: refusals.rateLimited,
        injected429: refusals.injected,
      };
    }),
    entries: ledger.entries().map((entry) => ({ ...entry, at: iso(entry.at) })),
    total: ledger.log.total,
    capacity: ledger.log.capacity,
  };
}

export function statsReport(state: MockState, now: number) {
  const rate = state.rateLimiter.sizes();
  return {
    now: iso(now),
    /** /api/v1 requests answered since the start or the last reset. */
    requests: state.journal.log.total,
    sizes: {
      journal: state.journal.log.size,
      journalCapacity: state.journal.log.capacity,
      ledgerEntries: state.ledger.log.size,
      ledgerCapacity: state.ledger.log.capacity,
      rateWindows: rate.accounts,
      rateBuckets: rate.buckets,
      idempotencyKeys: state.idempotency.size,
      scheduledEvents: state.scheduler.size,
      jobs: state.jobs.size,
      activeJobs: state.jobs.activeCount,
      articles: state.articles.size,
      checkouts: state.checkouts.size,
    },
    accounts: Object.fromEntries(
      state.accounts.all().map((account) => {
        const refusals = state.refusals.of(account.id);
        return [account.id, { rateLimited: refusals.rateLimited, injected429: refusals.injected }];
      }),
    ),
    faults: state.faults.counts(),
  };
}
