// One generation per profile, however many visitors ask for it at once, and however many
// copies of this backend run.
//
// The service allows one active job per profile: a second visitor who asks while the first
// one's job runs reads nothing yet (404, free) and a generate of its own is answered 409, which
// names no job to poll. Two things handle it:
//
// - In this process, visitors share the generation already under way (a map of promises by
//   profile): one job, one set of polls, one place in the generation cap (see app.ts), and no
//   read to pay for each visitor who joins. The shared wait does not end when a visitor leaves;
//   the next visitor for that profile picks it up.
// - Across processes (a second instance, a restart while a job ran, the CLI), memory is not
//   shared, and the SDK's generateAndWait waits out the 409 (its `onConflict: 'wait'`, the
//   default): it asks again with the same idempotency key at the client's poll interval until the
//   service answers with the article (the other job succeeded: a read, 1 credit) or a job (the
//   other job failed: this one is new and is paid for). Each 409 is free.
import type { Article, ProfileArticles } from '@profile-articles/sdk';

interface GenerationOptions {
  /** Called before a new generation starts (not when a visitor joins one under way); throws to refuse it. */
  admit?: (profileId: string) => void;
}

/** `generate(profileId)`: the article, generated once for all who ask at the same time. */
export function createGenerations(client: ProfileArticles, options: GenerationOptions = {}) {
  const underway = new Map<string, Promise<Article>>();

  return function generate(profileId: string): Promise<Article> {
    let generation = underway.get(profileId);
    if (!generation) {
      options.admit?.(profileId);
      // Not the visitor's signal: the generation outlives a visitor who leaves.
      generation = client.articles.generateAndWait(profileId).finally(() => underway.delete(profileId));
      // Every visitor may have left by the time it ends: its failure is then no one's to report.
      generation.catch(() => {});
      underway.set(profileId, generation);
    }
    return generation;
  };
}
