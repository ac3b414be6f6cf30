// node index.mjs <profile_id>: the article of a profile, generated if need be, with progress.
// Reads PROFILE_ARTICLES_API_KEY and PROFILE_ARTICLES_BASE_URL; POLL_INTERVAL_MS overrides the
// interface's advice of one poll every 10 s (the tests use it against a fast mock).
import { InsufficientCreditsError, JobFailedError, ProfileArticles } from '@profile-articles/sdk';

const profileId = process.argv[2];
if (!profileId) {
  console.error('usage: node index.mjs <profile_id>');
  process.exit(2);
}

const pollIntervalMs = process.env.POLL_INTERVAL_MS ? Number(process.env.POLL_INTERVAL_MS) : undefined;
const client = new ProfileArticles(pollIntervalMs === undefined ? {} : { pollIntervalMs });

// Ctrl-C stops waiting, never the job: it goes on, and a later run picks up the article.
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());

try {
  const started = Date.now();
  const article = await client.articles.generateAndWait(profileId, {
    signal: controller.signal,
    onPoll: (job) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      // Credits are reserved while the job runs, charged once it succeeded, refunded otherwise.
      const credits =
        job.status === 'succeeded'
          ? `${job.credits_charged} credits charged`
          : job.status === 'failed' || job.status === 'cancelled'
            ? 'refunded'
            : `${job.credits_charged} credits reserved`;
      console.error(`[${seconds} s] job ${job.job_id}: ${job.status} (${credits})`);
    },
  });
  console.log(`${article.title} (version ${article.current_version})`);
  for (const source of article.sources) console.log(`  [${source.id}] ${source.title}`);
} catch (error) {
  if (error instanceof JobFailedError) {
    // Refunded by the service. Running this again is a deliberate retry: a new call, a new key.
    console.error(
      `The job ended ${error.job.status}: ${error.job.error ?? 'no reason given'}. Its credits were refunded.`,
    );
    process.exitCode = 3;
  } else if (error instanceof InsufficientCreditsError) {
    const { credits, pricing } = await client.credits.balance();
    console.error(
      `Not enough credits: ${credits} left, a generation costs ${pricing.generation_credits}. Buy some: see examples/buy-credits.`,
    );
    process.exitCode = 5;
  } else if (controller.signal.aborted) {
    console.error('Stopped waiting. The job goes on; run this again to pick up the article.');
    process.exitCode = 130;
  } else {
    throw error;
  }
}
