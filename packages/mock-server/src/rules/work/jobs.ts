// Jobs and their life: queued → running → succeeded, or failed / cancelled with a refund.
// Transitions are events on the virtual clock; one active job per profile, across accounts.

import { MAX_CLOCK_MS } from '../clock.js';
import type { Ledger, LedgerReason } from '../money/ledger.js';
import type { ArticleSeed, Articles } from './articles.js';
import type { Scheduler } from './scheduler.js';
import { StoredJob } from './stored-job.js';
import { profileBehaviour } from './test-profiles.js';

export type JobKind = 'generate' | 'update';

export interface JobRecord {
  job: StoredJob;
  accountId: string;
  /** The key of the request that started it: proofs check that no key started two jobs. */
  idempotencyKey: string;
  kind: JobKind;
  /** When it started, on the mock's clock. */
  startedAt: number;
  /** When it next moves on (running, or ended); null once it has ended. For the dashboard's "time left". */
  nextAt: number | null;
}

export interface JobTimes {
  queuedMs: number;
  runningMs: number;
}

/** When an active job's events fall: what --data saves to schedule them again after a restart. */
export interface JobPlan extends JobTimes {
  at: number;
  queuedTimeoutMs: number;
  /** Set when the job is to fail with this error (a stub's `{"job": "fails"}`). */
  failure?: string;
}

/** A job as --data saves it; `plan` only while it is active. */
export interface SavedJob {
  jobId: string;
  profileId: string;
  accountId: string;
  idempotencyKey: string;
  kind: JobKind;
  startedAt: number;
  status: StoredJob['status'];
  creditsCharged: number;
  error: string | null;
  snapshot: ArticleSeed | null;
  plan?: JobPlan;
}

export interface StartJob {
  accountId: string;
  profileId: string;
  kind: JobKind;
  idempotencyKey: string;
  credits: number;
  queuedTimeoutMs: number;
  at: number;
  /** The config's timings unless given (a job replayed from --data's journal keeps its own). */
  times?: JobTimes;
  /** The error it fails with once run, whatever its profile (a stub's `{"job": "fails"}`). */
  failure?: string;
}

export interface Jobs {
  get(jobId: string): JobRecord | undefined;
  /** The queued or running job of a profile, from any account. */
  activeFor(profileId: string): JobRecord | undefined;
  /** Reserves the job's credits and creates it `queued`; undefined (and nothing taken) when the balance cannot pay. */
  start(request: StartJob): JobRecord | undefined;
  /** Every job ever started, and the active ones. */
  readonly size: number;
  readonly activeCount: number;
  all(): IterableIterator<JobRecord>;
  /** Every job, for --data's snapshot. */
  dump(): SavedJob[];
  /** Puts a saved job back; an active one has its events scheduled again. */
  load(saved: SavedJob): void;
}

interface JobsDeps {
  scheduler: Scheduler;
  ledger: Ledger;
  articles: Articles;
  times: JobTimes;
  newId: () => string;
}

export function createJobs(deps: JobsDeps): Jobs {
  const { scheduler, ledger, articles, times, newId } = deps;
  const byId = new Map<string, JobRecord>();
  const activeByProfile = new Map<string, JobRecord>();
  // Kept while a job is active only, beside it, so ended jobs cost nothing more.
  const plans = new Map<JobRecord, JobPlan>();

  const meta = (job: StoredJob, reason: LedgerReason) => ({
    reason,
    jobId: job.job_id,
    profileId: job.profile_id,
  });

  function end(record: JobRecord, status: 'failed' | 'cancelled', error: string, at: number): void {
    const { job } = record;
    ledger.add(record.accountId, job.credits_charged, 'refund', meta(job, `job-${status}`), at);
    job.status = status;
    job.credits_charged = 0;
    job.error = error;
    record.nextAt = null;
    activeByProfile.delete(job.profile_id);
    plans.delete(record);
  }

  /**
   * A job's event that throws ends the job `failed` and refunded, then lets the error go on
   * to the scheduler, which logs it: a job never stays active because of a bug.
   */
  function guarded(record: JobRecord, run: (at: number) => void): (at: number) => void {
    return (at) => {
      try {
        run(at);
      } catch (error) {
        if (activeByProfile.get(record.job.profile_id) === record)
          end(record, 'failed', 'The research run failed inside the mock; the credits were refunded', at);
        throw error;
      }
    };
  }

  function succeed(record: JobRecord, at: number): void {
    // The snapshot is the published version's seed: later updates make new seeds, never change it.
    record.job.snapshot = articles.publish(record.job.profile_id, at);
    record.job.status = 'succeeded';
    record.nextAt = null;
    ledger.settle(record.accountId, record.job.credits_charged, meta(record.job, 'job-succeeded'), at);
    activeByProfile.delete(record.job.profile_id);
    plans.delete(record);
  }

  /** The job's events on the clock: queued → running → ended, or cancelled when stuck. */
  function schedule(record: JobRecord, plan: JobPlan): void {
    const { job } = record;
    const { at } = plan;
    // The clock stops at MAX_CLOCK_MS: a step due past it would never come, and the job would
    // hold its reservation for good. Each phase is cut short so the job ends at the limit.
    const room = Math.max(0, MAX_CLOCK_MS - at);
    const queuedTimeoutMs = Math.min(plan.queuedTimeoutMs, room);
    const queuedMs = Math.min(plan.queuedMs, room);
    const runningMs = Math.min(plan.runningMs, room - queuedMs);
    const profileId = job.profile_id;
    plans.set(record, plan);
    const behaviour = profileBehaviour(profileId);
    if (behaviour === 'stuck' || plan.queuedMs >= plan.queuedTimeoutMs) {
      const minutes = Math.round(queuedTimeoutMs / 60_000);
      record.nextAt = at + queuedTimeoutMs;
      scheduler.at(
        at + queuedTimeoutMs,
        guarded(record, (when) =>
          end(
            record,
            'cancelled',
            `Job stayed queued longer than ${minutes} minute${minutes === 1 ? '' : 's'} and was cancelled`,
            when,
          ),
        ),
      );
      return;
    }
    record.nextAt = at + queuedMs;
    scheduler.at(
      at + queuedMs,
      guarded(record, () => {
        job.status = 'running';
        record.nextAt = at + queuedMs + runningMs;
      }),
    );
    scheduler.at(
      at + queuedMs + runningMs,
      guarded(record, (when) => {
        if (plan.failure !== undefined) end(record, 'failed', plan.failure, when);
        else if (behaviour === 'fail')
          end(record, 'failed', `Research run for "${profileId}" failed (test profile)`, when);
        else succeed(record, when);
      }),
    );
  }

  return {
    get: (jobId) => byId.get(jobId),
    activeFor: (profileId) => activeByProfile.get(profileId),
    get size() {
      return byId.size;
    },
    get activeCount() {
      return activeByProfile.size;
    },
    all: () => byId.values(),
    dump() {
      const saved: SavedJob[] = [];
      for (const record of byId.values()) {
        const { job } = record;
        const plan = plans.get(record);
        saved.push({
          jobId: job.job_id,
          profileId: job.profile_id,
          accountId: record.accountId,
          idempotencyKey: record.idempotencyKey,
          kind: record.kind,
          startedAt: record.startedAt,
          status: job.status,
          creditsCharged: job.credits_charged,
          error: job.error,
          snapshot: job.snapshot,
          ...(plan ? { plan } : {}),
        });
      }
      return saved;
    },
    load(saved) {
      const job = new StoredJob(saved.jobId, saved.profileId, saved.creditsCharged, articles);
      job.status = saved.status;
      job.error = saved.error;
      job.snapshot = saved.snapshot;
      const record: JobRecord = {
        job,
        accountId: saved.accountId,
        idempotencyKey: saved.idempotencyKey,
        kind: saved.kind,
        startedAt: saved.startedAt,
        nextAt: null,
      };
      byId.set(job.job_id, record);
      if (saved.plan) {
        activeByProfile.set(job.profile_id, record);
        schedule(record, saved.plan);
      }
    },
    start({
      accountId,
      profileId,
      kind,
      idempotencyKey,
      credits,
      queuedTimeoutMs,
      at,
      times: given,
      failure,
    }) {
      // Checked before an id is made, so a refused start leaves the id sequence as it was.
      if (ledger.balance(accountId) < credits) return undefined;
      const job = new StoredJob(newId(), profileId, credits, articles);
      ledger.take(accountId, credits, 'reservation', meta(job, kind), at);
      const record: JobRecord = { job, accountId, idempotencyKey, kind, startedAt: at, nextAt: null };
      byId.set(job.job_id, record);
      activeByProfile.set(profileId, record);
      const { queuedMs, runningMs } = given ?? times;
      schedule(record, {
        at,
        queuedMs,
        runningMs,
        queuedTimeoutMs,
        ...(failure === undefined ? {} : { failure }),
      });
      return record;
    },
  };
}
