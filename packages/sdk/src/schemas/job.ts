import * as z from 'zod/mini';
import { ArticleSchema } from './article.js';

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const JobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatusSchema>;

/** Statuses after which a job never changes again: stop polling. */
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];

export function isTerminalStatus(status: JobStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'cancelled';
}

/** `queued` and `running`: keep polling. */
export function isActiveStatus(status: JobStatus): boolean {
  return !isTerminalStatus(status);
}

/** Any 8-4-4-4-12 hex identifier; the interface says "uuid format" without naming a version. */
export const JobIdSchema = z.guid();

export const JobSchema = z.looseObject({
  job_id: JobIdSchema,
  profile_id: z.string(),
  status: JobStatusSchema,
  /** Reserved or charged credits; 0 once a failed or cancelled job is refunded. */
  credits_charged: z.int(),
  /** On success, a snapshot that does not change after later updates of the profile. */
  article: z._default(z.nullable(ArticleSchema), null),
  error: z._default(z.nullable(z.string()), null),
});

export type Job = z.infer<typeof JobSchema>;
