// Polls a job until it ends: waits between polls, honours a Retry-After up to maxRetryDelayMs
// (a longer one ends the wait with the RateLimitError; a shorter one than the poll interval waits
// the interval), and stops at once on abort or timeout.
// Stopping to wait never cancels the job on the server.

import { nonNegative } from '../core/arguments.js';
import { RateLimitError, TimeoutError } from '../errors/errors.js';
import { boundedSignal, sleep } from '../retry/abort.js';
import { refusesServerWait, serverWaitMs } from '../retry/retry.js';
import { isTerminalStatus, type Job, type TerminalJob } from '../schemas/job.js';

export interface WaitOptions {
  /** Between polls. Default: the client's `pollIntervalMs` (10 s; 1 s on a loopback origin). */
  intervalMs?: number;
  /**
   * Bound on the whole wait, in ms; each poll is still bounded by the client's per-attempt
   * `timeoutMs`. Default 35 minutes: the queued timeout plus running time. Running out rejects
   * with TimeoutError; the job keeps running on the server.
   */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with every state seen, the first one included. */
  onPoll?: (job: Job) => void;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 35 * 60_000;

/** A state of the job, with the request id of the answer it came in. */
interface Polled<J extends Job = Job> {
  job: J;
  requestId: string | undefined;
}

export interface PollDeps {
  /** `waitingSince`: when this wait began, so that under pacing the job waiting longest polls first. */
  getJob: (
    jobId: string,
    signal: AbortSignal,
    waitingSince: number,
  ) => Promise<{ data: Job; requestId: string | undefined }>;
  intervalMs: number;
  /** The client's option: a Retry-After longer than this ends the wait with the RateLimitError. */
  maxRetryDelayMs: number;
  /** Keeps the API key out of the job a TimeoutError carries, should the server have echoed it. */
  redact: (job: Job) => Job;
}

function isTerminal(job: Job): job is TerminalJob {
  return isTerminalStatus(job.status);
}

/** Resolves to the ended job and the request id of the poll that saw it end. */
export async function pollUntilTerminal(
  jobId: string,
  deps: PollDeps,
  options: WaitOptions = {},
  first?: Polled,
  /** Of the call that started the job, for the TimeoutError to carry. */
  idempotencyKey?: string,
): Promise<Polled<TerminalJob>> {
  const intervalMs = nonNegative('intervalMs', options.intervalMs, deps.intervalMs);
  const timeoutMs = nonNegative('timeoutMs', options.timeoutMs, DEFAULT_WAIT_TIMEOUT_MS);
  let last: Polled | undefined = first;
  const waitingSince = Date.now();
  const { signal, dispose } = boundedSignal(
    options.signal,
    timeoutMs,
    () =>
      new TimeoutError(
        `Stopped waiting for job ${jobId} after ${timeoutMs} ms (last status: ${last?.job.status ?? 'unknown'}); the job goes on`,
        { ...(last && { job: deps.redact(last.job), requestId: last.requestId }), idempotencyKey },
      ),
  );
  try {
    let job = first?.job;
    for (;;) {
      if (job === undefined) {
        try {
          const { data, requestId } = await deps.getJob(jobId, signal, waitingSince);
          job = data;
          last = { job, requestId };
        } catch (error) {
          if (!(error instanceof RateLimitError) || signal.aborted) throw error;
          // The transport already waited out its retries; keep the poll going on the server's
          // terms, unless the server asked for a longer wait than the caller allows. A shorter
          // wait than the poll interval (Retry-After: 0) is never taken: that was a tight loop.
          const askedMs = (error.retryAfterSeconds ?? 1) * 1000;
          if (error.retryAfterSeconds !== undefined && refusesServerWait(askedMs, deps.maxRetryDelayMs)) {
            throw error;
          }
          await sleep(Math.max(intervalMs, serverWaitMs(askedMs)), signal);
          continue;
        }
        options.onPoll?.(job);
      }
      if (isTerminal(job)) return { job, requestId: last?.requestId };
      // A minimum: under pacing the poll then waits its turn in the window.
      job = undefined;
      await sleep(intervalMs, signal);
    }
  } catch (error) {
    throw signal.aborted ? signal.reason : error;
  } finally {
    dispose();
  }
}
