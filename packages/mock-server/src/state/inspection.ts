// What the control endpoints show of the state: the credit ledger (GET /_mock/ledger) and
// the sizes and counters of GET /_mock/stats. Never a key: accounts by id only.
import type { MockState } from './state.js';

const iso = (at: number) => new Date(at).toISOString();

export type LedgerReport = ReturnType<typeof ledgerReport>;
export type StatsReport = ReturnType<typeof statsReport>;

/**
 * Without `page`, every kept entry oldest first; with it (`GET /_mock/ledger?offset=&limit=`, as
 * the dashboard asks), that page of them newest first.
 */
export function ledgerReport(state: MockState, page?: PageQuery) {
  const { ledger } = state;
  const all = ledger.entries();
  const kept = page
    ? newestPage(
        all,
        all.length,
        () => true,
        (entry) => entry,
        page,
      ).shown
    : all;
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
    entries: kept.map((entry) => ({ ...entry, at: iso(entry.at) })),
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
    /** Stubs registered now, and the requests stubs answered since the start or the last reset. */
    stubs: { active: state.stubs.active, matched: state.stubs.matched },
  };
}

/** A page of a list, newest first: `offset` items skipped, at most `limit` given. */
interface PageQuery {
  offset?: number | undefined;
  limit?: number | undefined;
}

const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 1000;

/**
 * Newest first from an iterator that gives oldest first, keeping only what matches: one pass
 * over the items (100,000 jobs take a few milliseconds) and no copy of them all.
 */
function newestPage<T, R>(
  items: Iterable<T>,
  size: number,
  keep: (item: T) => boolean,
  show: (item: T) => R,
  page: PageQuery,
) {
  const offset = page.offset ?? 0;
  const limit = page.limit ?? DEFAULT_PAGE_LIMIT;
  // Matches counted from the oldest; the page is the window [total − offset − limit, total − offset).
  const matching: T[] = [];
  for (const item of items) if (keep(item)) matching.push(item);
  const end = Math.max(0, matching.length - offset);
  const start = Math.max(0, end - limit);
  const shown = matching.slice(start, end).reverse().map(show);
  return { total: matching.length, stored: size, offset, limit, shown };
}

interface JobsQuery extends PageQuery {
  status?: string | undefined;
  account?: string | undefined;
}

/** `GET /_mock/jobs`: jobs newest first, with who started them and when they next move on. */
export function jobsReport(state: MockState, query: JobsQuery) {
  const page = newestPage(
    state.jobs.all(),
    state.jobs.size,
    (record) =>
      (query.status === undefined || record.job.status === query.status) &&
      (query.account === undefined || record.accountId === query.account),
    (record) => ({
      jobId: record.job.job_id,
      accountId: record.accountId,
      profileId: record.job.profile_id,
      kind: record.kind,
      status: record.job.status,
      creditsCharged: record.job.credits_charged,
      startedAt: iso(record.startedAt),
      nextAt: record.nextAt === null ? null : iso(record.nextAt),
      error: record.job.error,
    }),
    query,
  );
  return { jobs: page.shown, total: page.total, offset: page.offset, limit: page.limit };
}

interface CheckoutsQuery extends PageQuery {
  status?: 'pending' | 'paid' | undefined;
}

/** `GET /_mock/checkouts`: checkout sessions newest first. */
export function checkoutsReport(state: MockState, query: CheckoutsQuery) {
  const page = newestPage(
    state.checkouts.all(),
    state.checkouts.size,
    (session) => query.status === undefined || session.paid === (query.status === 'paid'),
    (session) => ({
      sessionId: session.id,
      accountId: session.accountId,
      credits: session.credits,
      amountCents: session.amountCents,
      status: session.paid ? 'paid' : 'pending',
    }),
    query,
  );
  return { checkouts: page.shown, total: page.total, offset: page.offset, limit: page.limit };
}
