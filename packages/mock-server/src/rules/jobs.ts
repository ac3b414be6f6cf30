// Jobs and their life: queued → running → succeeded, or failed / cancelled with a refund.
// Transitions are events on the virtual clock; one active job per profile, across accounts.
import type { Articles } from './articles.js';
import type { Ledger, LedgerReason } from './ledger.js';
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

interface JobTimes {
  queuedMs: number;
  runningMs: number;
}

export interface StartJob {
  accountId: string;
  profileId: string;
  kind: JobKind;
  idempotencyKey: string;
  credits: number;
  queuedTimeoutMs: number;
  at: number;
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
    start({ accountId, profileId, kind, idempotencyKey, credits, queuedTimeoutMs, at }) {
      // Checked before an id is made, so a refused start leaves the id sequence as it was.
      if (ledger.balance(accountId) < credits) return undefined;
      const job = new StoredJob(newId(), profileId, credits, articles);
      ledger.take(accountId, credits, 'reservation', meta(job, kind), at);
      const record: JobRecord = { job, accountId, idempotencyKey, kind, startedAt: at, nextAt: null };
      byId.set(job.job_id, record);
      activeByProfile.set(profileId, record);

      const behaviour = profileBehaviour(profileId);
      if (behaviour === 'stuck' || times.queuedMs >= queuedTimeoutMs) {
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
        return record;
      }
      record.nextAt = at + times.queuedMs;
      scheduler.at(
        at + times.queuedMs,
        guarded(record, () => {
          job.status = 'running';
          record.nextAt = at + times.queuedMs + times.runningMs;
        }),
      );
      scheduler.at(
        at + times.queuedMs + times.runningMs,
        guarded(record, (when) => {
          if (behaviour === 'fail')
            end(record, 'failed', `Research run for "${profileId}" failed (test profile)`, when);
          else succeed(record, when);
        }),
      );
      return record;
    },
  };
}
