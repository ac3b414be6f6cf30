// Waiting for a job with a spinner: Ctrl-C and --timeout stop the wait, never the job.
import type { Job, ProfileArticles } from '@profile-articles/sdk';
import type { Context } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { renderArticle, renderJob } from '../render.js';

class Interrupted extends Error {
  override name = 'Interrupted';
}

export function parseTimeout(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new CliError(`--timeout must be a positive number of seconds, got "${raw}"`, ExitCode.Usage);
  }
  return Math.round(seconds * 1000);
}

const resumeHint = (jobId: string) => `Resume with: profile-articles job ${jobId} --wait`;

export async function waitForJob(
  ctx: Context,
  client: ProfileArticles,
  started: Job,
  options: { timeoutMs?: number | undefined; label: string },
): Promise<Job> {
  const { TimeoutError } = await import('@profile-articles/sdk');
  const spinner = await ctx.out.spinner(`${options.label}: ${started.status}`);
  const begun = Date.now();
  let last = started;
  const describe = () => `${options.label}: ${last.status} (${Math.round((Date.now() - begun) / 1000)}s)`;
  const ticker = setInterval(() => spinner.update(describe()), 1000);
  ticker.unref?.();
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Interrupted('interrupted'));
  process.once('SIGINT', onSigint);
  try {
    return await client.jobs.waitFor(started.job_id, {
      signal: controller.signal,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      onPoll: (job) => {
        last = job;
        spinner.update(describe());
      },
    });
  } catch (error) {
    if (error instanceof Interrupted) {
      throw new CliError(
        `Stopped waiting. Job ${started.job_id} goes on on the server.`,
        ExitCode.Interrupted,
        resumeHint(started.job_id),
      );
    }
    if (error instanceof TimeoutError) {
      throw new CliError(
        `Gave up waiting after ${Math.round((options.timeoutMs ?? 0) / 1000)} s: job ${started.job_id} is still ${last.status}.`,
        ExitCode.Failure,
        resumeHint(started.job_id),
      );
    }
    throw error;
  } finally {
    clearInterval(ticker);
    spinner.stop();
    process.off('SIGINT', onSigint);
  }
}

/** Prints a job as the run's result; a failed or cancelled one exits 3 after printing. */
export function printJobResult(ctx: Context, job: Job): void {
  const { out } = ctx;
  if (out.json) out.value(job);
  else if (job.status === 'succeeded' && job.article) out.line(renderArticle(job.article, out.style));
  else out.line(renderJob(job, out.style));
  if (job.status === 'failed' || job.status === 'cancelled') {
    throw new CliError(
      `Job ${job.job_id} for "${job.profile_id}" ended ${job.status}${job.error ? `: ${job.error}` : ''}.`,
      ExitCode.JobFailed,
      'Its credits were refunded. Try again with a new request.',
    );
  }
}
