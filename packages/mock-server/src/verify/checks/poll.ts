// Polls a job to a terminal state as the contract advises (about every 10 s), then checks
// what the end state promises: a succeeded job holds its article, a failed or cancelled
// one was refunded (credits_charged 0, and the balance shows it). Polling stops at verify's
// own limit (limits.ts), never at one the server advertises.
import { isTerminalStatus, type Job, JobSchema } from '@profile-articles/sdk/schemas';
import { call, expectEqual, type RunContext, record } from '../context.js';
import { judge } from '../contract.js';
import { MIN_POLL_INTERVAL_MS } from '../limits.js';
import { type Charge, judgeRefund } from '../paid-probe.js';

export async function pollToTerminal(
  ctx: RunContext,
  jobId: string,
  prefix: 'generate' | 'update',
  charge: Charge,
): Promise<Job | undefined> {
  const base = {
    id: `${prefix}.poll`,
    endpoint: 'getJob' as const,
    name: `the ${prefix} job reaches a terminal state`,
  };
  const interval = Math.max(ctx.options.pollIntervalMs, MIN_POLL_INTERVAL_MS);
  let waited = 0;
  for (;;) {
    const answer = await call(ctx, 'getJob', { params: { job_id: jobId } });
    const difference = judge('getJob', answer, 200);
    if (difference) {
      record(ctx, { ...base, status: 'failed', ...difference });
      return undefined;
    }
    const job = JobSchema.parse(answer.body);
    if (isTerminalStatus(job.status)) {
      record(ctx, { ...base, status: 'passed', reason: `ended ${job.status}` });
      await checkEndState(ctx, prefix, job, charge);
      return job;
    }
    if (waited + interval > ctx.limits.pollLimitMs) {
      const expected = `a terminal state within ${Math.round(ctx.limits.pollLimitMs / 60_000)} minutes`;
      record(ctx, { ...base, status: 'failed', expected, got: `still ${job.status}` });
      return undefined;
    }
    await ctx.wait(interval);
    waited += interval;
  }
}

async function checkEndState(ctx: RunContext, prefix: 'generate' | 'update', job: Job, charge: Charge) {
  if (job.status === 'succeeded') {
    const got = job.article === null ? 'article: null' : 'article: an Article';
    expectEqual(
      ctx,
      'getJob',
      `${prefix}.result`,
      'a succeeded job holds its article',
      'article: an Article',
      got,
    );
    return;
  }
  const name = `a ${job.status} job is refunded`;
  expectEqual(
    ctx,
    'getJob',
    `${prefix}.refund`,
    name,
    'credits_charged 0',
    `credits_charged ${job.credits_charged}`,
  );
  await judgeRefund(ctx, prefix, charge);
}
