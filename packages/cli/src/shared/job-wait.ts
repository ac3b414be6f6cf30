// Waiting for a job with a spinner: Ctrl-C and --timeout stop the wait, never the job.
import type { Job, ProfileArticles } from '@profile-articles/sdk';
import { CliError, Interrupted } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Context } from '../settings/context.js';
import { MAX_WAIT_SECONDS } from '../settings/timer-limit.js';
import { invocation } from '../shell/invocation.js';
import { plural } from '../terminal/plural.js';
import { renderJob } from '../terminal/render.js';

class SigintAbort extends Error {
  override name = 'SigintAbort';
}

/** `--timeout SECONDS` as milliseconds; undefined when not given. */
export function parseTimeout(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_WAIT_SECONDS) {
    throw new CliError(
      `--timeout must be a number of seconds from 1 to ${MAX_WAIT_SECONDS}, got "${raw}"`,
      ExitCode.Usage,
    );
  }
  return Math.round(seconds * 1000);
}

const resumeHint = (ctx: Context, jobId: string) =>
  `Resume with: ${invocation(ctx.io.env, ctx.options.profile)} job ${jobId} --wait`;

/** "queued · 8 s · next check in 2 s": what the spinner says while waiting. */
export function waitingText(status: string, elapsedMs: number, nextCheckMs: number): string {
  const next = nextCheckMs <= 0 ? 'checking now' : `next check in ${Math.ceil(nextCheckMs / 1000)} s`;
  return `${status} · ${Math.floor(elapsedMs / 1000)} s · ${next}`;
}

/**
 * Runs `wait` with Ctrl-C turned into an abort. The listener stays for the whole wait: with it
 * present, a dependency's exit hook (ora's signal-exit) does not re-raise the signal first.
 */
export async function untilInterrupted<T>(wait: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => controller.abort(new SigintAbort('interrupted'));
  process.on('SIGINT', onSigint);
  try {
    return await wait(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export const isInterrupted = (error: unknown) => error instanceof SigintAbort;

export async function waitForJob(
  ctx: Context,
  client: ProfileArticles,
  started: Job,
  options: { timeoutMs?: number | undefined; label: string },
): Promise<Job> {
  const { TimeoutError } = await import('@profile-articles/sdk');
  const { pollIntervalMs } = await ctx.settings();
  const begun = Date.now();
  let last = started;
  let lastCheck = begun;
  const describe = () =>
    `${options.label}: ${waitingText(last.status, Date.now() - begun, lastCheck + pollIntervalMs - Date.now())}`;
  const spinner = await ctx.out.spinner(describe());
  const status = ctx.out.statusLines();
  status(`${options.label}: ${last.status}`);
  const ticker = setInterval(() => spinner.update(describe()), 250);
  ticker.unref?.();
  try {
    return await untilInterrupted((signal) =>
      client.jobs.waitFor(started.job_id, {
        signal,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        onPoll: (job) => {
          last = job;
          lastCheck = Date.now();
          spinner.update(describe());
          status(`${options.label}: ${job.status}`);
        },
      }),
    );
  } catch (error) {
    if (isInterrupted(error)) {
      ctx.out.clearInterruptedLine();
      throw new Interrupted(
        `Stopped waiting: job ${started.job_id} keeps running on the server.`,
        resumeHint(ctx, started.job_id),
      );
    }
    if (error instanceof TimeoutError && options.timeoutMs !== undefined) {
      throw new CliError(
        `Gave up waiting after ${plural(Math.round((options.timeoutMs ?? 0) / 1000), 'second')}: job ${started.job_id} is still ${last.status}.`,
        ExitCode.Failure,
        resumeHint(ctx, started.job_id),
      );
    }
    throw error;
  } finally {
    clearInterval(ticker);
    spinner.stop();
  }
}

/** A failed or cancelled job: its error is told once, by the error line, and it exits 3. */
export function failIfUnsuccessful(ctx: Context, job: Job): void {
  if (job.status !== 'failed' && job.status !== 'cancelled') return;
  if (ctx.out.json) ctx.out.value(job);
  else ctx.out.line(renderJob({ ...job, error: null }, ctx.out.style));
  throw new CliError(
    `Job ${job.job_id} for "${job.profile_id}" ended ${job.status}${job.error ? `: ${job.error}` : ''}.`,
    ExitCode.JobFailed,
    'Its credits were refunded. Try again with a new request.',
  );
}
