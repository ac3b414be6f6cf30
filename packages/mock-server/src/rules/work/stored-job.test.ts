import { describe, expect, it } from 'vitest';
import { toJsonText } from '../json-text.js';
import type { ArticleSeed, Articles } from './articles.js';
import { StoredJob } from './stored-job.js';

const article = { article_id: 'a-1', profile_id: 'p', content: '# P\n\n"quoted"', version: 1 };
// The job only asks its store to render the seed it published.
const articles = { render: () => article } as unknown as Articles;

describe("a job's JSON text", () => {
  it('is what JSON.stringify gives, at every status', () => {
    const job = new StoredJob('j-1', 'p', 10, articles);
    expect(toJsonText(job)).toBe(JSON.stringify(job));
    job.status = 'running';
    expect(toJsonText(job)).toBe(JSON.stringify(job));
    job.snapshot = {} as ArticleSeed;
    job.status = 'succeeded';
    expect(toJsonText(job)).toBe(JSON.stringify(job));
    const failed = new StoredJob('j-2', 'p', 0, articles);
    failed.status = 'failed';
    failed.error = 'The research run failed';
    expect(toJsonText(failed)).toBe(JSON.stringify(failed));
  });

  it('is made once for an ended job, and anew while a job can still change', () => {
    const job = new StoredJob('j-3', 'p', 10, articles);
    const queued = toJsonText(job);
    job.status = 'running';
    expect(toJsonText(job)).not.toBe(queued);
    job.snapshot = {} as ArticleSeed;
    job.status = 'succeeded';
    const ended = toJsonText(job);
    // Nothing changes an ended job; if something did, the kept text shows it was kept.
    job.credits_charged = 99;
    expect(toJsonText(job)).toBe(ended);
  });
});
