// Refreshes (updates) a list of profiles with one paced client. Every update's idempotency key
// is derived from a run id and the profile, so running the same run again after a crash
// resumes it: the API answers each finished or started update with its original job and
// charges nothing twice. A new run id is a new refresh.
import { createHash } from 'node:crypto';
import { type Article, JobFailedError, type ProfileArticles } from '@profile-articles/sdk';

export interface RefreshResult {
  profileId: string;
  article?: Article;
  error?: string;
}

/** At most 200 characters whatever the profile id: the interface's bound on a key. */
export function refreshKey(runId: string, profileId: string): string {
  const profile = createHash('sha256').update(profileId).digest('hex').slice(0, 32);
  return `refresh:${runId.slice(0, 100)}:${profile}`;
}

export async function refreshProfiles(
  client: ProfileArticles,
  profileIds: readonly string[],
  options: { runId: string; concurrency?: number; onResult?: (result: RefreshResult) => void },
): Promise<RefreshResult[]> {
  const queue = [...new Set(profileIds)];
  const results: RefreshResult[] = [];
  // The client's pacing spreads these workers' requests, polls included, over the rate limit.
  const worker = async () => {
    for (let profileId = queue.shift(); profileId !== undefined; profileId = queue.shift()) {
      let result: RefreshResult;
      try {
        const article = await client.articles.updateAndWait(profileId, {
          idempotencyKey: refreshKey(options.runId, profileId),
        });
        result = { profileId, article };
      } catch (error) {
        // A failed job was refunded; other errors (404, 402…) charged nothing.
        result = {
          profileId,
          error: error instanceof JobFailedError ? 'job failed' : (error as Error).message,
        };
      }
      results.push(result);
      options.onResult?.(result);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return results;
}
