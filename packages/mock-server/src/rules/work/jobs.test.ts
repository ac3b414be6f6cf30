import { seededIds } from '@profile-articles/test-utils/seeded-ids';
import { describe, expect, it } from 'vitest';
import { createLedger } from '../money/ledger.js';
import { createArticles } from './articles.js';
import { createJobs } from './jobs.js';
import { createScheduler } from './scheduler.js';

function setup(times = { queuedMs: 10, runningMs: 20 }) {
  const scheduler = createScheduler();
  const ledger = createLedger(new Map([['a', 100]]));
  const newId = seededIds();
  const articles = createArticles(newId);
  const jobs = createJobs({ scheduler, ledger, articles, times, newId });
  const start = (profileId: string, at = 0) =>
    jobs.start({
      accountId: 'a',
      profileId,
      kind: 'generate',
      idempotencyKey: `k-${profileId}`,
      credits: 100,
      queuedTimeoutMs: 1000,
      at,
    })!;
  return { scheduler, ledger, articles, jobs, start };
}

describe('jobs', () => {
  it('go queued → running → succeeded on the clock and publish the article then', () => {
    const { scheduler, articles, jobs, start } = setup();
    const { job } = start('ada');
    expect(job.job_id).toBe('00000000-0000-4000-8000-000000000001');
    expect(jobs.get(job.job_id)?.job).toBe(job);
    expect(jobs.activeFor('ada')?.job).toBe(job);
    scheduler.runDue(9);
    expect(job.status).toBe('queued');
    scheduler.runDue(10);
    expect(job.status).toBe('running');
    scheduler.runDue(30);
    expect(job.status).toBe('succeeded');
    expect(job.article).toEqual(articles.get('ada'));
    expect(job.article?.updated_at).toBe(new Date(30).toISOString());
    // A snapshot: a later version of the profile leaves it as it was.
    const before = JSON.stringify(job);
    articles.publish('ada', 500);
    expect(articles.get('ada')?.current_version).toBe(2);
    expect(job.article?.current_version).toBe(1);
    expect(JSON.stringify(job)).toBe(before);
    expect(jobs.activeFor('ada')).toBeUndefined();
  });

  it('refund failed jobs and report credits_charged 0 with an error', () => {
    const { scheduler, ledger, start } = setup();
    const { job } = start('fail-x');
    scheduler.runDue(30);
    expect(job).toMatchObject({ status: 'failed', credits_charged: 0, article: null });
    expect(job.error).toContain('fail-x');
    expect(ledger.balance('a')).toBe(100);
  });

  it('cancel and refund stuck jobs at the queued timeout, and jobs that would queue past it', () => {
    const stuck = setup();
    const { job } = stuck.start('stuck-x');
    stuck.scheduler.runDue(999);
    expect(job.status).toBe('queued');
    stuck.scheduler.runDue(1000);
    expect(job).toMatchObject({ status: 'cancelled', credits_charged: 0 });
    expect(stuck.ledger.balance('a')).toBe(100);

    const slow = setup({ queuedMs: 5000, runningMs: 1 });
    const late = slow.start('normal').job;
    slow.scheduler.runDue(1000);
    expect(late.status).toBe('cancelled');
  });
});
