// Everything the mock holds, built from the config. `reset` builds it again.
import type { Article } from '@profile-articles/sdk/schemas';
import { type NormalizedConfig, type NormalizedSeedArticle, seededText } from '../config/config.js';
import { createJournal, type Journal } from '../rules/journal.js';
import { type Accounts, createAccounts } from '../rules/money/accounts.js';
import { type Checkouts, createCheckouts } from '../rules/money/checkout.js';
import { createLedger, type Ledger } from '../rules/money/ledger.js';
import { createFaults, type Faults } from '../rules/request/faults.js';
import { createIdempotencyKeys, type IdempotencyKeys } from '../rules/request/idempotency.js';
import { createRateLimiter, type RateLimiter } from '../rules/request/rate-limit.js';
import { createRefusals, type Refusals } from '../rules/request/refusals.js';
import { createRequestCounts, type RequestCounts } from '../rules/request/request-counts.js';
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
  /** Every journaled request counted, for `/_mock/requests/count` (the journal keeps the last 1,000). */
  requestCounts: RequestCounts;
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
  const requestCounts = createRequestCounts(config.accounts.map((account) => account.id));
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
    journal: createJournal(requestCounts.add),
    requestCounts,
    faults: createFaults(config.faults),
    refusals: createRefusals(),
    stubs: createStubs(),
  };
}

type SeedResult = { ok: true; article: Article } | { ok: false; detail: string };

/**
 * A seeded article (config `articles`, `POST /_mock/articles`, `service.seedArticle`): version 1
 * of a profile that has none, charged to nobody. Refused when the profile has an article, or a
 * job under way (its end would publish over the seed).
 */
export function seedArticle(state: MockState, seed: NormalizedSeedArticle, at: number): SeedResult {
  const { profileId } = seed;
  if (state.articles.seed(profileId))
    return { ok: false, detail: `An article for profile "${profileId}" exists already; nothing was seeded` };
  if (state.jobs.activeFor(profileId))
    return {
      ok: false,
      detail: `Profile "${profileId}" has a job under way, whose end would write its article; nothing was seeded`,
    };
  const stored = state.articles.seedArticle(profileId, seededText(seed), at)!;
  return { ok: true, article: state.articles.render(stored) };
}

/** The config's `articles`, seeded into a state just built (at start, at a reset). */
export function seedConfigArticles(state: MockState, at: number): void {
  for (const seed of state.config.articles) seedArticle(state, seed, at);
}
