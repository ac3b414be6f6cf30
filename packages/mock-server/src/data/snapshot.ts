// --data's snapshot: the whole state the journal's records built, as one JSON value, so a
// start replays only the records written since. What it holds is PRODUCT.md's list: accounts'
// balances and the ledger, articles, jobs (an active one with its plan, to schedule its events
// again), idempotency keys with their expiry, checkout sessions, the clock and the id source.
// The request journal, rate windows and fault rules start empty, as the docs say.
import type { ArticleSeed } from '../rules/articles.js';
import type { CheckoutSession } from '../rules/checkout.js';
import type { SavedKey } from '../rules/idempotency.js';
import type { SavedJob } from '../rules/jobs.js';
import type { LedgerDump } from '../rules/ledger.js';
import type { MockState } from '../state.js';
import type { IdState } from './ids.js';

export const SNAPSHOT_VERSION = 1;

export interface Snapshot {
  version: typeof SNAPSHOT_VERSION;
  /** The journal generation that follows it: only a journal of this generation is replayed on top. */
  generation: number;
  ids: IdState;
  /** The clock's offset from real time, and the latest time it had shown. */
  clock: { offset: number; latest: number };
  ledger: LedgerDump;
  articles: ArticleSeed[];
  jobs: SavedJob[];
  keys: SavedKey[];
  checkouts: CheckoutSession[];
}

export function dumpState(state: MockState, extra: Pick<Snapshot, 'generation' | 'ids' | 'clock'>): Snapshot {
  return {
    version: SNAPSHOT_VERSION,
    ...extra,
    ledger: state.ledger.dump(),
    articles: [...state.articles.seeds()],
    jobs: state.jobs.dump(),
    keys: state.idempotency.dump(),
    checkouts: [...state.checkouts.all()],
  };
}

/** Fills a freshly built state from a snapshot. A seed saved in several places becomes one object. */
export function loadState(state: MockState, snapshot: Snapshot): void {
  const seeds = new Map<string, ArticleSeed>();
  const intern = (seed: ArticleSeed): ArticleSeed => {
    const name = `${seed.articleId}\u0000${seed.version}`;
    let kept = seeds.get(name);
    if (!kept) {
      kept = seed;
      seeds.set(name, seed);
    }
    return kept;
  };
  state.ledger.load(snapshot.ledger);
  for (const seed of snapshot.articles) state.articles.load(intern(seed));
  for (const job of snapshot.jobs)
    state.jobs.load({ ...job, snapshot: job.snapshot && intern(job.snapshot) });
  for (const saved of snapshot.keys) {
    const { outcome } = saved.request;
    const request =
      outcome.kind === 'read'
        ? { ...saved.request, outcome: { ...outcome, seed: intern(outcome.seed) } }
        : saved.request;
    state.idempotency.load({ ...saved, request });
  }
  for (const session of snapshot.checkouts) state.checkouts.load(session);
}
