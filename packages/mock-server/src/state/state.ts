// Everything the mock holds, built from the config. `reset` builds it again.
import type { NormalizedConfig } from '../config/config.js';
import { createJournal, type Journal } from '../rules/journal.js';
import { type Accounts, createAccounts } from '../rules/money/accounts.js';
import { type Checkouts, createCheckouts } from '../rules/money/checkout.js';
import { createLedger, type Ledger } from '../rules/money/ledger.js';
import { createFaults, type Faults } from '../rules/request/faults.js';
import { createIdempotencyKeys, type IdempotencyKeys } from '../rules/request/idempotency.js';
import { createRateLimiter, type RateLimiter } from '../rules/request/rate-limit.js';
import { createRefusals, type Refusals } from '../rules/request/refusals.js';
import { createStubs, type Stubs } from '../rules/request/stubs.js';
import { type Articles, createArticles } from '../rules/work/articles.js';
import { createJobs, type Jobs } from '../rules/work/jobs.js';
import { createScheduler, type Scheduler } from '../rules/work/scheduler.js';

export interface MockState {
  config: NormalizedConfig;
  accounts: Accounts;
  scheduler: Scheduler;
  ledger: Ledger;
  articles: Articles;
  jobs: Jobs;
  idempotency: IdempotencyKeys;
  rateLimiter: RateLimiter;
  checkouts: Checkouts;
  journal: Journal;
  faults: Faults;
  refusals: Refusals;
  /** Outcome stubs: memory only, empty at every start and after a reset. */
  stubs: Stubs;
}

/**
 * `newId` makes every id (jobs, articles, checkouts): random UUIDs, or a seeded source in tests.
 * `onError` hears of errors inside scheduled events, which never reach a request.
 */
export function createState(
  config: NormalizedConfig,
  newId: () => string,
  onError?: (error: unknown) => void,
  /** Names a profile's first article; `newId` unless --data makes ids of its own (data/ids.ts). */
  articleId: (profileId: string) => string = newId,
): MockState {
  const accounts = createAccounts(config.accounts);
  const scheduler = createScheduler(onError);
  const ledger = createLedger(new Map(config.accounts.map((account) => [account.id, account.credits])));
  const articles = createArticles(articleId);
  return {
    config,
    accounts,
    scheduler,
    ledger,
    articles,
    jobs: createJobs({ scheduler, ledger, articles, times: config.jobs, newId }),
    idempotency: createIdempotencyKeys(scheduler),
    rateLimiter: createRateLimiter(),
    checkouts: createCheckouts(ledger, newId),
    journal: createJournal(),
    faults: createFaults(config.faults),
    refusals: createRefusals(),
    stubs: createStubs(),
  };
}
