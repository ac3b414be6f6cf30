// --data's snapshot: the whole state the journal's records built, as one JSON value, so a
// start replays only the records written since. What it holds is PRODUCT.md's list: accounts'
// balances and the ledger, articles, jobs (an active one with its plan, to schedule its events
// again), idempotency keys with their expiry, checkout sessions, the clock and the id source.
// The request journal, rate windows and fault rules start empty, as the docs say.

import type { CheckoutSession } from '../rules/money/checkout.js';
import type { LedgerDump } from '../rules/money/ledger.js';
import type { ArticleSeed, SeededText } from '../rules/work/articles.js';
import type { JobKind, JobPlan, SavedJob } from '../rules/work/jobs.js';
import type { MockState } from '../state/state.js';
import type { IdState } from './ids.js';

/** 2 added a seeded article's text (a sixth field of its row); a start reads version 1 too. */
export const SNAPSHOT_VERSION = 2;
const SNAPSHOT_VERSIONS: readonly unknown[] = [1, 2];

/** An article version: profile, article id, version, created and updated (ms), and a seeded one's text. */
type SavedSeed =
  | [string, string, number, number, number]
  | [string, string, number, number, number, SeededText];
/** A version that is its profile's current one is named by its number alone (most are). */
type SeedRef = number | SavedSeed;
/** Job id, profile, account, key, status, credits charged, error, published version, plan, kind, start. */
type SavedJobRow = [
  string,
  string,
  string,
  string,
  SavedJob['status'],
  number,
  string | null,
  SeedRef | null,
  JobPlanRow | 0,
  JobKind,
  number,
];
/** When an active job started, its queue and run times, its queue timeout (ms), and a stubbed failure's error. */
type JobPlanRow = [number, number, number, number] | [number, number, number, number, string];
/** Account, key, operation, profile, outcome (a job id, or a read's version and charge), expiry. */
type SavedKeyRow = [string, string, JobKind, string, string | [SeedRef, number], number];

/**
 * The snapshot's rows are arrays, not objects, and a version that is current is named by its
 * number: 100,000 stored articles make a snapshot of about 30 MB rather than 80, and parsing
 * it was most of a start's time.
 */
export interface Snapshot {
  /** SNAPSHOT_VERSION when written; 1 in a folder an earlier mock wrote. */
  version: number;
  /** The journal generation that follows it: only a journal of this generation is replayed on top. */
  generation: number;
  ids: IdState;
  /** The clock's offset from real time, and the latest time it had shown. */
  clock: { offset: number; latest: number };
  ledger: LedgerDump;
  articles: SavedSeed[];
  jobs: SavedJobRow[];
  keys: SavedKeyRow[];
  checkouts: CheckoutSession[];
}

const seedRow = (seed: ArticleSeed): SavedSeed =>
  seed.text
    ? [seed.profileId, seed.articleId, seed.version, seed.createdAt, seed.updatedAt, seed.text]
    : [seed.profileId, seed.articleId, seed.version, seed.createdAt, seed.updatedAt];
const seedOf = ([profileId, articleId, version, createdAt, updatedAt, text]: SavedSeed): ArticleSeed => ({
  profileId,
  articleId,
  version,
  createdAt,
  updatedAt,
  ...(text ? { text } : {}),
});

export function dumpState(state: MockState, extra: Pick<Snapshot, 'generation' | 'ids' | 'clock'>): Snapshot {
  const ref = (seed: ArticleSeed): SeedRef =>
    state.articles.seed(seed.profileId) === seed ? seed.version : seedRow(seed);
  return {
    version: SNAPSHOT_VERSION,
    ...extra,
    ledger: state.ledger.dump(),
    articles: [...state.articles.seeds()].map(seedRow),
    jobs: state.jobs
      .dump()
      .map((job) => [
        job.jobId,
        job.profileId,
        job.accountId,
        job.idempotencyKey,
        job.status,
        job.creditsCharged,
        job.error,
        job.snapshot && ref(job.snapshot),
        job.plan ? planRow(job.plan) : 0,
        job.kind,
        job.startedAt,
      ]),
    keys: state.idempotency
      .dump()
      .map(({ accountId, key, request, expiresAt }) => [
        accountId,
        key,
        request.operation,
        request.profileId,
        request.outcome.kind === 'job'
          ? request.outcome.jobId
          : [ref(request.outcome.seed), request.outcome.creditsCharged],
        expiresAt,
      ]),
    checkouts: [...state.checkouts.all()],
  };
}

function planRow(plan: JobPlan): JobPlanRow {
  const row: JobPlanRow = [plan.at, plan.queuedMs, plan.runningMs, plan.queuedTimeoutMs];
  return plan.failure === undefined ? row : [...row, plan.failure];
}

/** Fills a freshly built state from a snapshot: a current version is the article's own seed object. */
export function loadState(state: MockState, snapshot: Snapshot): void {
  const seedFor = (profileId: string, ref: SeedRef): ArticleSeed => {
    if (typeof ref !== 'number') return seedOf(ref);
    const current = state.articles.seed(profileId);
    if (current?.version !== ref) throw new Error(`snapshot: ${profileId} has no version ${ref}`);
    return current;
  };
  state.ledger.load(snapshot.ledger);
  for (const row of snapshot.articles) state.articles.load(seedOf(row));
  for (const [
    jobId,
    profileId,
    accountId,
    idempotencyKey,
    status,
    creditsCharged,
    error,
    ref,
    plan,
    kind,
    startedAt,
  ] of snapshot.jobs) {
    state.jobs.load({
      jobId,
      kind,
      startedAt,
      profileId,
      accountId,
      idempotencyKey,
      status,
      creditsCharged,
      error,
      snapshot: ref === null ? null : seedFor(profileId, ref),
      ...(plan
        ? {
            plan: {
              at: plan[0],
              queuedMs: plan[1],
              runningMs: plan[2],
              queuedTimeoutMs: plan[3],
              ...(plan[4] === undefined ? {} : { failure: plan[4] }),
            },
          }
        : {}),
    });
  }
  for (const [accountId, key, operation, profileId, outcome, expiresAt] of snapshot.keys) {
    state.idempotency.load({
      accountId,
      key,
      expiresAt,
      request: {
        operation,
        profileId,
        outcome:
          typeof outcome === 'string'
            ? { kind: 'job', jobId: outcome }
            : { kind: 'read', seed: seedFor(profileId, outcome[0]), creditsCharged: outcome[1] },
      },
    });
  }
  for (const session of snapshot.checkouts) state.checkouts.load(session);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isTime = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const rowsOf = (value: unknown, length: number, orLength = length) =>
  Array.isArray(value) &&
  value.every((row) => Array.isArray(row) && (row.length === length || row.length === orLength));
/** An article row: five fields, or (version 2) six, the sixth a seeded article's text. */
const articleRows = (value: unknown, version: unknown) =>
  rowsOf(value, 5, version === 1 ? 5 : 6) &&
  (value as unknown[][]).every((row) => row.length === 5 || isObject(row[5]));

/**
 * Whether `value` has the shape of a snapshot this mock writes: every part there, of its type,
 * and every row of its length. Read before the URL is printed, so a hand-made file
 * (`{"version":1}`) is refused as a foreign one is, not met later as a TypeError. The rows'
 * fields are not looked into: that would cost a large snapshot's start much of its time.
 */
export function isSnapshot(value: unknown): value is Snapshot {
  if (!isObject(value) || !SNAPSHOT_VERSIONS.includes(value.version) || !isCount(value.generation))
    return false;
  const { ids, clock, ledger } = value;
  return (
    isObject(ids) &&
    typeof ids.seed === 'string' &&
    isCount(ids.counter) &&
    isCount(ids.epoch) &&
    isObject(clock) &&
    isTime(clock.offset) &&
    isTime(clock.latest) &&
    isObject(ledger) &&
    rowsOf(ledger.totals, 2) &&
    Array.isArray(ledger.entries) &&
    isCount(ledger.total) &&
    articleRows(value.articles, value.version) &&
    rowsOf(value.jobs, 11) &&
    rowsOf(value.keys, 6) &&
    Array.isArray(value.checkouts) &&
    value.checkouts.every(isObject)
  );
}
