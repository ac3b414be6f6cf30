// The types `service.state()` reaches (MockState and every store it holds), in one list for
// the public entry (index.ts): the stores stay the mock's own, their shapes can be named.
export type { Account, Accounts } from './rules/accounts.js';
export type { ArticleSeed, Articles } from './rules/articles.js';
export type { BoundedLog } from './rules/bounded-log.js';
export type { CheckoutSession, Checkouts, PayResult } from './rules/checkout.js';
export type { FaultCounts, FaultRule, Faults, NormalizedFaults } from './rules/faults.js';
export type { IdempotencyKeys, Lookup, SavedKey, StoredOutcome, StoredRequest } from './rules/idempotency.js';
export type { JobKind, JobPlan, JobRecord, Jobs, JobTimes, SavedJob, StartJob } from './rules/jobs.js';
export type { Journal, JournalRecord } from './rules/journal.js';
export type {
  Ledger,
  LedgerDump,
  LedgerKind,
  LedgerMeta,
  LedgerReason,
  LedgerTotals,
} from './rules/ledger.js';
export type { RateDecision, RateLimiter } from './rules/rate-limit.js';
export type { RefusalCounts, Refusals } from './rules/refusals.js';
export type { Scheduler } from './rules/scheduler.js';
export type { StoredJob } from './rules/stored-job.js';
export type { MockState } from './state.js';
