// One profile of a batch, from the state file's record of it to its end. Every generate and
// update is announced in the state file (profile, key) before it is sent; a started job is
// recorded as soon as its id is known, so a rerun polls it instead of paying again.
import { randomUUID } from 'node:crypto';
import type { Article, Job, ProfileArticles } from '@profile-articles/sdk';
import { writeArticleFiles } from './article-files.js';
import type { StopReason } from './budget.js';
import type { StateFile } from './state-file.js';
import {
  countedCharge,
  type EndStatus,
  type Operation,
  type Prices,
  type ProfileProgress,
  type StateRecord,
} from './state-records.js';

type Sdk = typeof import('@profile-articles/sdk');
export type EndRecord = Extract<StateRecord, { type: 'end' }>;

/** How a profile's turn ended in this run: recorded, or left open for a rerun. */
type ProfileResult =
  | { kind: 'ended'; record: EndRecord; article?: Article }
  | { kind: 'stopped'; reason: StopReason | 'interrupted' | 'unresolved'; error?: string };

export interface ProfileRun {
  sdk: Sdk;
  client: ProfileArticles;
  state: StateFile;
  operation: Operation;
  /** The least a paid outcome counts for, whatever the server claims it charged. */
  prices: Prices;
  /** What the budget holds for one request: a request whose outcome cannot be learned counts it. */
  cost: number;
  pollIntervalMs: number;
  /** --out: each finished article's files are written before its end is recorded. */
  outDir: string | undefined;
  signal: AbortSignal;
  /** Told once a request for the profile has gone out (with the job id once known). */
  onStarted: (profileId: string, jobId: string | undefined, resumed: boolean) => void;
}

/** A 409 for an active job is retried this many times with the same key, then recorded as failed. */
const CONFLICT_TRIES = 5;
const CONFLICT_WAIT_MS = 2_000;
const WAIT_BOUND_MS = 24 * 60 * 60_000;
/** How long a server keeps an Idempotency-Key (the mock's and Stripe's 24 hours). */
const KEY_KEPT_MS = 24 * 60 * 60_000;

const now = () => new Date().toISOString();

function describe(sdk: Sdk, error: unknown): string {
  if (error instanceof sdk.ApiError) return `${error.status}: ${sdk.describeDetail(error.detail)}`;
  return (error as Error)?.message ?? String(error);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export async function runProfile(
  run: ProfileRun,
  profileId: string,
  progress: ProfileProgress | undefined,
): Promise<ProfileResult> {
  const { sdk, client, state, operation, signal } = run;
  const end = (status: EndStatus, credits: number, extra: Partial<EndRecord> = {}): ProfileResult => {
    const record: EndRecord = {
      type: 'end',
      profile_id: profileId,
      status,
      credits_charged: countedCharge(status, credits, run.prices),
      ...extra,
      at: now(),
    };
    state.append(record);
    return { kind: 'ended', record };
  };
  // A paid outcome with its article: finished only once --out's files are on disk. If they
  // cannot be written the work was still paid for: recorded as an error with its charge, so that
  // --retry-failed reads it again and the budget counts what it cost.
  const finish = (
    status: EndStatus,
    claimed: number,
    article: Article | null,
    extra: Partial<EndRecord> = {},
  ) => {
    const charged = countedCharge(status, claimed, run.prices);
    if (article && run.outDir) {
      try {
        writeArticleFiles(run.outDir, profileId, article);
      } catch (error) {
        return end('error', charged, {
          ...extra,
          error: `paid for, but its files were not written: ${describe(sdk, error)}`,
        });
      }
    }
    const result = end(status, charged, extra);
    return article ? ({ ...result, article } as ProfileResult) : result;
  };
  const resumed = progress?.open !== undefined;
  let jobId = progress?.open?.jobId;
  const key = operation === 'read' ? undefined : (progress?.open?.idempotencyKey ?? randomUUID());
  if (!resumed) {
    state.append({
      type: 'send',
      profile_id: profileId,
      ...(key === undefined ? {} : { idempotency_key: key }),
      at: now(),
    });
  }

  // A request left open whose outcome can no longer be learned by sending it again: a read (it
  // has no key, so a second read is a second charge), or one sent more than a day ago (the
  // server has forgotten its key). It counts at its worst case; --retry-failed sends it anew.
  const sentAt = progress?.open?.sentAt === undefined ? Number.NaN : Date.parse(progress.open.sentAt);
  if (resumed && jobId === undefined) {
    if (operation === 'read') {
      return end('error', run.cost, {
        error: `a read left open by an earlier run may have been charged: counted as ${run.cost}; --retry-failed reads it again`,
      });
    }
    // (A hand-made record's time may be no time at all: then it is sent again, as before.)
    if (Date.now() - sentAt >= KEY_KEPT_MS) {
      return end('error', run.cost, {
        error: `its answer was lost more than 24 hours ago and its key has expired: counted as ${run.cost}; --retry-failed sends it again`,
      });
    }
  }

  try {
    if (jobId === undefined) {
      run.onStarted(profileId, undefined, resumed);
      if (operation === 'read') {
        // A read has no key: each attempt whose answer is lost may be charged again. A client
        // of its own, held to this read's reservation, sends no retry that could be; what it
        // may have spent is counted.
        const reader = client.withOptions({ spendLimit: run.cost });
        try {
          const answer = await reader.articles.read(profileId, { signal });
          return finish('read', answer.credits_charged, answer.article);
        } catch (error) {
          if (signal.aborted || reader.spent === 0) throw error;
          return end('error', reader.spent, {
            error: `${describe(sdk, error)}; it may have been charged, so it counts ${reader.spent}`,
          });
        }
      }
      let job: Job | undefined;
      for (let attempt = 1; job === undefined; attempt++) {
        try {
          const callOptions = { signal, idempotencyKey: key as string };
          const answer =
            operation === 'generate'
              ? await client.articles.generate(profileId, callOptions)
              : await client.articles.update(profileId, callOptions);
          if (!sdk.isJob(answer)) {
            return finish('existing', answer.credits_charged, answer.article);
          }
          job = answer;
        } catch (error) {
          // A 409 for the key itself will never pass; one for an active job may, a little later.
          const keyConflict = /idempotency|key/i.test(describe(sdk, error));
          if (!(error instanceof sdk.ConflictError) || keyConflict || attempt >= CONFLICT_TRIES) throw error;
          await sleep(Math.max(run.pollIntervalMs, CONFLICT_WAIT_MS), signal);
        }
      }
      jobId = job.job_id;
      state.append({
        type: 'job',
        profile_id: profileId,
        job_id: jobId,
        credits_charged: Math.max(0, job.credits_charged),
        at: now(),
      });
      run.onStarted(profileId, jobId, resumed);
    } else {
      run.onStarted(profileId, jobId, true);
    }
    const job = await client.jobs.waitFor(jobId, {
      signal,
      intervalMs: run.pollIntervalMs,
      // The job ends by itself (the queued timeout cancels a stuck one); Ctrl-C stops the wait.
      timeoutMs: WAIT_BOUND_MS,
    });
    const extra = { job_id: jobId, ...(job.error ? { error: job.error } : {}) };
    return finish(job.status as EndStatus, job.credits_charged, job.article, extra);
  } catch (error) {
    if (signal.aborted) return { kind: 'stopped', reason: 'interrupted' };
    if (error instanceof sdk.InsufficientCreditsError) return { kind: 'stopped', reason: 'balance' };
    if (error instanceof sdk.NotFoundError) return end('not_found', 0, { error: describe(sdk, error) });
    if (error instanceof sdk.ConflictError) return end('conflict', 0, { error: describe(sdk, error) });
    if (error instanceof sdk.ApiError && error.status < 500 && error.status !== 429 && error.status !== 408) {
      return end('error', 0, { error: describe(sdk, error) });
    }
    // A 5xx, a timeout or a lost connection after every retry: the request may have taken
    // effect. Leave it open; a rerun sends it again with the same key, which charges nothing twice.
    return { kind: 'stopped', reason: 'unresolved', error: describe(sdk, error) };
  }
}
