// generateAndWait's answer to a 409 "another job is active for this profile": the 409 names no
// job to wait for, so the same generate, with the same key, is sent again at the poll interval
// until it is answered otherwise. A 409 changes nothing on the server and costs nothing; the
// answer that ends the wait is the article (the other job succeeded: a read's price) or a job
// of this call's own (the other ended without one: a generation). One key throughout, so a
// retried answer never starts a second job.

import { ConflictError, InvalidArgumentError, TimeoutError } from '../errors/errors.js';
import { boundedSignal, sleep } from '../retry/abort.js';

/** What generateAndWait does on a 409 for another active job: wait it out, or throw ConflictError. */
export type OnConflict = 'wait' | 'throw';

export function checkOnConflict(value: unknown): OnConflict {
  if (value === undefined || value === 'wait' || value === 'throw') return value ?? 'wait';
  throw new InvalidArgumentError(`onConflict must be 'wait' or 'throw', got ${JSON.stringify(value)}`);
}

/**
 * `send()`, again every `intervalMs` after each ConflictError, until it is answered otherwise or
 * `timeoutMs` have passed since the first 409 (TimeoutError). A request under way is not cut
 * short by that bound: what it started is answered. Resolves to the answer and how long the
 * 409s were waited out, which the wait for the job then has less of.
 */
export async function sendThroughConflicts<T>(
  send: () => Promise<T>,
  profileId: string,
  {
    intervalMs,
    timeoutMs,
    signal,
    idempotencyKey,
  }: { intervalMs: number; timeoutMs: number; signal?: AbortSignal | undefined; idempotencyKey: string },
): Promise<[answer: T, waitedMs: number]> {
  const begun = Date.now();
  let bound: ReturnType<typeof boundedSignal> | undefined;
  try {
    for (;;) {
      try {
        return [await send(), bound ? Date.now() - begun : 0];
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
      }
      bound ??= boundedSignal(
        signal,
        timeoutMs - (Date.now() - begun),
        () =>
          new TimeoutError(
            `Stopped waiting after ${timeoutMs} ms: another job for "${profileId}" was still active; nothing was started or charged`,
            { idempotencyKey },
          ),
      );
      await sleep(intervalMs, bound.signal);
    }
  } finally {
    bound?.dispose();
  }
}
