import * as z from 'zod/mini';
import { type Article, ArticleSchema, ReadResponseSchema } from './article.js';
import type { SameShape } from './same-shape.js';

// The one list of statuses: whether each is terminal (the job never changes again: stop
// polling) or active (`queued`, `running`: keep polling). Everything else derives from it.
const IS_TERMINAL = {
  queued: false,
  running: false,
  succeeded: true,
  failed: true,
  cancelled: true,
} as const;

export type JobStatus = keyof typeof IS_TERMINAL;
/** `succeeded`, `failed` or `cancelled`. */
export type TerminalJobStatus = {
  [S in JobStatus]: (typeof IS_TERMINAL)[S] extends true ? S : never;
}[JobStatus];
/** `queued` or `running`. */
export type ActiveJobStatus = Exclude<JobStatus, TerminalJobStatus>;

export const JOB_STATUSES = Object.keys(IS_TERMINAL) as [JobStatus, ...JobStatus[]];
/**
 * One of {@link JOB_STATUSES}. A literal of several values is what `z.enum` would be (the same
 * check, issue and JSON Schema `enum`) with less of zod's code in a bundle.
 */
export const JobStatusSchema = z.literal(JOB_STATUSES);

/** Statuses after which a job never changes again: stop polling. */
export const TERMINAL_JOB_STATUSES: readonly TerminalJobStatus[] = JOB_STATUSES.filter(isTerminalStatus);

export function isTerminalStatus(status: JobStatus): status is TerminalJobStatus {
  return IS_TERMINAL[status];
}

/** `queued` and `running`: keep polling. */
export function isActiveStatus(status: JobStatus): status is ActiveJobStatus {
  return !IS_TERMINAL[status];
}

/** A generation or update job. It belongs to the customer account that created it. */
export interface Job {
  /** A UUID. */
  job_id: string;
  /** The profile slug. */
  profile_id: string;
  /** `queued` or `running` (keep polling), or `succeeded`, `failed` or `cancelled` (terminal). */
  status: JobStatus;
  /** Credits reserved or charged; 0 once a failed or cancelled job is refunded. */
  credits_charged: number;
  /** On success, a snapshot that does not change after later updates of the profile; else null. */
  article: Article | null;
  /** Why the job failed, when it did; else null. */
  error: string | null;
}

/** A Job that will never change again: what `jobs.waitFor` resolves to. */
export interface TerminalJob extends Job {
  /** `succeeded`, `failed` or `cancelled`: the job has ended, and polling stops. */
  status: TerminalJobStatus;
}

/** Any 8-4-4-4-12 hex identifier; the interface says "uuid format" without naming a version. */
export const JobIdSchema = z.guid();

export const JobSchema = z.looseObject({
  job_id: JobIdSchema,
  profile_id: z.string(),
  status: JobStatusSchema,
  // A charge is never negative (the interface: credits reserved or charged, 0 after a refund):
  // a server that claims one would let a client that budgets from it spend without limit.
  credits_charged: z.int().check(z.nonnegative()),
  article: z._default(z.nullable(ArticleSchema), null),
  error: z._default(z.nullable(z.string()), null),
});

const _job: SameShape<Job, z.output<typeof JobSchema>> = true;

/** `generateArticle` answers 200 with either shape; a Job is told apart by its `job_id`. */
export const GenerateResponseSchema = z.union([JobSchema, ReadResponseSchema]);
