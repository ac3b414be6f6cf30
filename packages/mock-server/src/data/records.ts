// What --data's journal holds: one record per change a request made to the state, written before
// its answer leaves. Events on the clock (a job running, ending, a key expiring) are not
// recorded: replaying the records in order, each at its own time, runs them again exactly.
// A record carries what its change depended on (prices, job timings), so a restart with another
// config replays what happened rather than what the new config would have done.
// Pure: the files are data/folder.ts's.

import type { LedgerReason } from '../rules/money/ledger.js';
import type { StoredOutcome } from '../rules/request/idempotency.js';
import type { ArticleSeed, SeededText } from '../rules/work/articles.js';
import type { JobKind } from '../rules/work/jobs.js';
import type { MockState } from '../state/state.js';

export type DataRecord =
  /** A read's credit (a read, or a generate answered with the existing article). */
  | { t: 'charge'; at: number; a: string; c: number; r: LedgerReason; p: string | null }
  /** A job started, its credits reserved, with the timings it was given. */
  | {
      t: 'job';
      at: number;
      a: string;
      p: string;
      k: JobKind;
      key: string;
      c: number;
      qt: number;
      q: number;
      r: number;
      /** The error a stubbed failing job ends with; absent for every other job. */
      f?: string;
    }
  /** An Idempotency-Key kept with its outcome. */
  | { t: 'key'; at: number; a: string; key: string; o: JobKind; p: string; out: SavedOutcome }
  | { t: 'checkout'; a: string; c: number; cents: number }
  | { t: 'pay'; at: number; s: string }
  /** A seeded article (journal version 2): its profile and the text it was given, if any. */
  | { t: 'article'; at: number; p: string; x?: SeededText }
  | { t: 'advance'; ms: number }
  | { t: 'reset' }
  /**
   * Written only by --data-recover in place of damaged records: the ids they had taken (jobs'
   * and checkouts'), so that the records after them get their own ids again on replay.
   */
  | { t: 'skip'; ids: number };

type SavedOutcome = { job: string } | { seed: ArticleSeed; c: number };

/**
 * Makes `state` tell `record` of each change a request makes: its rule objects' changing
 * methods are wrapped (events call the unwrapped inner ones, or wrapped ones that record
 * nothing for them: a job's reservation and settlement are the job's record, not a charge).
 */
export function recordChanges(state: MockState, record: (change: DataRecord) => void): void {
  const { ledger, jobs, idempotency, checkouts, articles, config } = state;
  const take = ledger.take;
  ledger.take = (accountId, amount, kind, meta, at) => {
    const taken = take(accountId, amount, kind, meta, at);
    if (taken && kind === 'charge')
      record({ t: 'charge', at, a: accountId, c: amount, r: meta.reason, p: meta.profileId ?? null });
    return taken;
  };
  const start = jobs.start;
  jobs.start = (request) => {
    const started = start(request);
    if (started) {
      const { queuedMs, runningMs } = request.times ?? config.jobs;
      record({
        t: 'job',
        at: request.at,
        a: request.accountId,
        p: request.profileId,
        k: request.kind,
        key: request.idempotencyKey,
        c: request.credits,
        qt: request.queuedTimeoutMs,
        q: queuedMs,
        r: runningMs,
        ...(request.failure === undefined ? {} : { f: request.failure }),
      });
    }
    return started;
  };
  const remember = idempotency.remember;
  idempotency.remember = (accountId, key, request, at) => {
    remember(accountId, key, request, at);
    const { outcome } = request;
    const out: SavedOutcome =
      outcome.kind === 'job' ? { job: outcome.jobId } : { seed: outcome.seed, c: outcome.creditsCharged };
    record({ t: 'key', at, a: accountId, key, o: request.operation, p: request.profileId, out });
  };
  const seedArticle = articles.seedArticle;
  articles.seedArticle = (profileId, text, at) => {
    const seeded = seedArticle(profileId, text, at);
    if (seeded) record({ t: 'article', at, p: profileId, ...(seeded.text ? { x: seeded.text } : {}) });
    return seeded;
  };
  const create = checkouts.create;
  checkouts.create = (accountId, credits, cents) => {
    const session = create(accountId, credits, cents);
    record({ t: 'checkout', a: accountId, c: credits, cents });
    return session;
  };
  const pay = checkouts.pay;
  checkouts.pay = (sessionId, at) => {
    const result = pay(sessionId, at);
    if (result === 'paid') record({ t: 'pay', at, s: sessionId });
    return result;
  };
}

/** The stored outcome a record names; a read's seed is the article's own object when current. */
function outcomeOf(state: MockState, out: SavedOutcome): StoredOutcome {
  if ('job' in out) return { kind: 'job', jobId: out.job };
  const current = state.articles.seed(out.seed.profileId);
  const seed =
    current?.articleId === out.seed.articleId && current.version === out.seed.version ? current : out.seed;
  return { kind: 'read', seed, creditsCharged: out.c };
}

/**
 * Replays one record of the state's own kinds (advance and reset are the live state's), its
 * time's due events first, as the request that made it ran them. The state must not be
 * recording (the caller's switch), or the replay would be journaled again.
 */
export function applyRecord(state: MockState, change: DataRecord): void {
  if ('at' in change) state.scheduler.runDue(change.at);
  switch (change.t) {
    case 'charge':
      state.ledger.take(
        change.a,
        change.c,
        'charge',
        { reason: change.r, ...(change.p === null ? {} : { profileId: change.p }) },
        change.at,
      );
      return;
    case 'job':
      state.jobs.start({
        accountId: change.a,
        profileId: change.p,
        kind: change.k,
        idempotencyKey: change.key,
        credits: change.c,
        queuedTimeoutMs: change.qt,
        at: change.at,
        times: { queuedMs: change.q, runningMs: change.r },
        ...(change.f === undefined ? {} : { failure: change.f }),
      });
      return;
    case 'key':
      state.idempotency.remember(
        change.a,
        change.key,
        { operation: change.o, profileId: change.p, outcome: outcomeOf(state, change.out) },
        change.at,
      );
      return;
    case 'checkout':
      state.checkouts.create(change.a, change.c, change.cents);
      return;
    case 'pay':
      state.checkouts.pay(change.s, change.at);
      return;
    case 'article':
      state.articles.seedArticle(change.p, change.x ?? {}, change.at);
      return;
    default:
      throw new Error(`Not a state record: ${change.t}`);
  }
}
