import type { Job } from '@profile-articles/sdk/schemas';
import type { OperationContext } from './context.js';
import { fail, type Outcome, ok } from './outcome.js';

/** Free. Another account's job is as good as missing: 404. */
export function getJob(ctx: OperationContext, jobId: string): Outcome<Job, 200, 404> {
  const record = ctx.state.jobs.get(jobId);
  if (!record || record.accountId !== ctx.account.id) return fail(404, 'Job not found');
  return ok(record.job);
}
