// One generation per profile, however many visitors ask for it at once, and however many
// copies of this backend run.
//
// Without this, a second visitor who asks while the first one's job runs reads nothing yet (404,
// free), asks for a generation with a key of its own, and the service answers 409: one job per
// profile may be active. The 409 names no job, so there is nothing to poll. Two things fix it:
//
// - In this process, visitors share the generation already under way (a map of promises by
//   profile): one job, one set of polls. The shared wait does not end when a visitor leaves; the
//   next visitor for that profile picks it up.
// - Across processes (a second instance, a restart while a job ran, the CLI), memory is not
//   shared: on a 409 the generation asks again with the same idempotency key, at the poll
//   interval, until the service answers with the article (the other job succeeded: a read, 1
//   credit) or a job (the other job failed: this one is new and is paid for). A 409 changes
//   nothing on the service, so asking again is free; one key means that a retry of a lost
//   answer never starts a second job.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Article, ConflictError, type ProfileArticles, TimeoutError } from '@profile-articles/sdk';

export interface GenerationOptions {
  /** Between two asks while another job for the profile runs. Default 10 s, the interface's advice for polling. */
  conflictRetryMs?: number;
  /** Bound on a whole generation, conflicts included. Default 35 minutes, as the SDK's wait. */
  timeoutMs?: number;
  /** Called before a new generation starts (not when a visitor joins one under way); throws to refuse it. */
  admit?: (profileId: string) => void;
}

/** `generate(profileId)`: the article, generated once for all who ask at the same time. */
export function createGenerations(client: ProfileArticles, options: GenerationOptions = {}) {
  const retryMs = options.conflictRetryMs ?? 10_000;
  const timeoutMs = options.timeoutMs ?? 35 * 60_000;
  const underway = new Map<string, Promise<Article>>();

  async function generateOnce(profileId: string): Promise<Article> {
    const idempotencyKey = randomUUID();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const waitTimeoutMs = Math.max(1, deadline - Date.now());
        return await client.articles.generateAndWait(profileId, { idempotencyKey, waitTimeoutMs });
      } catch (error) {
        // The key is ours alone, so a 409 means another job for this profile is active.
        if (!(error instanceof ConflictError)) throw error;
        if (Date.now() + retryMs > deadline) {
          throw new TimeoutError(`Another job for ${profileId} was still running after ${timeoutMs} ms`);
        }
        await sleep(retryMs);
      }
    }
  }

  return function generate(profileId: string): Promise<Article> {
    let generation = underway.get(profileId);
    if (!generation) {
      options.admit?.(profileId);
      generation = generateOnce(profileId).finally(() => underway.delete(profileId));
      // Every visitor may have left by the time it ends: its failure is then no one's to report.
      generation.catch(() => {});
      underway.set(profileId, generation);
    }
    return generation;
  };
}
