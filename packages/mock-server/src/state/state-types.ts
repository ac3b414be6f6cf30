// The types `service.state()` reaches (MockState and every store it holds), in one list for
// the public entry (index.ts): the stores stay the mock's own, their shapes can be named.

export type { BoundedLog } from '../rules/bounded-log.js';
export type { Journal, JournalRecord } from '../rules/journal.js';
export type { Account, Accounts } from '../rules/money/accounts.js';
export type { CheckoutSession, Checkouts, PayResult } from '../rules/money/checkout.js';
export type {
  Ledger,
  LedgerDump,
  LedgerKind,
  LedgerMeta,
  LedgerReason,
  LedgerTotals,
} from '../rules/money/ledger.js';
export type { FaultCounts, FaultRule, Faults, NormalizedFaults } from '../rules/request/faults.js';
export type {
  IdempotencyKeys,
  Lookup,
  SavedKey,
  StoredOutcome,
  StoredRequest,
} from '../rules/request/idempotency.js';
export type { RateDecision, RateLimiter } from '../rules/request/rate-limit.js';
export type { RefusalCounts, Refusals } from '../rules/request/refusals.js';
export type { CountFilters, RequestCounts } from '../rules/request/request-counts.js';
export type { NormalizedStub, StubProbe, Stubs } from '../rules/request/stubs.js';
export type { ArticleSeed, Articles, SeededText } from '../rules/work/articles.js';
export type { JobKind, JobPlan, JobRecord, Jobs, JobTimes, SavedJob, StartJob } from '../rules/work/jobs.js';
export type { Scheduler } from '../rules/work/scheduler.js';
export type { StoredJob } from '../rules/work/stored-job.js';
export type { MockState } from './state.js';
