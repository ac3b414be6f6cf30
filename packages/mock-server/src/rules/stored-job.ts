// A job as the mock keeps it: the Job's own fields, and for a succeeded job the seed of the
// article version it published instead of a copy of the article. `article` renders that
// seed when read, and JSON gives exactly the interface's Job, fields in the same order.
import type { Article, Job, JobStatus } from '@profile-articles/sdk/schemas';
import type { ArticleSeed, Articles } from './articles.js';

export class StoredJob {
  status: JobStatus = 'queued';
  error: string | null = null;
  /** The published version's seed, once the job succeeded. */
  snapshot: ArticleSeed | null = null;

  constructor(
    readonly job_id: string,
    readonly profile_id: string,
    public credits_charged: number,
    private readonly articles: Articles,
  ) {}

  /** The result snapshot: the version this job published, whatever came after. */
  get article(): Article | null {
    return this.snapshot && this.articles.render(this.snapshot);
  }

  toJSON(): Job {
    return {
      job_id: this.job_id,
      profile_id: this.profile_id,
      status: this.status,
      credits_charged: this.credits_charged,
      article: this.article,
      error: this.error,
    };
  }
}
