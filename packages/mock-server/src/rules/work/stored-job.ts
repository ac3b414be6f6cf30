// A job as the mock keeps it: the Job's own fields, and for a succeeded job the seed of the
// article version it published instead of a copy of the article. `article` renders that
// seed when read, and JSON gives exactly the interface's Job, fields in the same order.
import type { Article, Job, JobStatus } from '@profile-articles/sdk/schemas';
import { toJsonText } from '../json-text.js';
import type { ArticleSeed, Articles } from './articles.js';

const ENDED: ReadonlySet<JobStatus> = new Set<JobStatus>(['succeeded', 'failed', 'cancelled']);
/**
 * The JSON texts of ended jobs, which never change again: polling an ended job or replaying
 * the generate that made it answers the same 1.7 KB each time, and building it (the job's
 * fields around its article's kept text) was most of a replay's time in the rules. Bounded,
 * started over when full, so memory does not grow with the jobs answered.
 */
const endedTexts = new Map<StoredJob, string>();
const ENDED_TEXTS_KEPT = 256;

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

  /** The Job's JSON text, as `JSON.stringify` gives it (see rules/json-text.ts). */
  toJsonText(): string {
    if (!ENDED.has(this.status)) return toJsonText(this.toJSON());
    let text = endedTexts.get(this);
    if (text === undefined) {
      if (endedTexts.size >= ENDED_TEXTS_KEPT) endedTexts.clear();
      text = toJsonText(this.toJSON());
      endedTexts.set(this, text);
    }
    return text;
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
