import { type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { describe, expect, it } from 'vitest';

describe.each<TransportKind>(['http', 'msw'])('jobs and test profiles over %s', (kind) => {
  const h = useMock(kind);
  const balance = async (key = 'key-0001') => (await h.call('GET', '/api/v1/credits', { key })).body.credits;
  const start = (profileId: string, key = 'k1') =>
    h.call('POST', '/api/v1/articles', { body: { profile_id: profileId }, idempotencyKey: key });

  it('fail- profiles end failed, refunded, credits_charged 0, with an error', async () => {
    const started = await start('fail-someone');
    expect(await balance()).toBe(900);
    await h.advance(5000);
    const job = await h.call('GET', `/api/v1/jobs/${started.body.job_id}`);
    expect(job.body).toMatchObject({ status: 'failed', credits_charged: 0, article: null });
    expect(job.body.error).toEqual(expect.any(String));
    expect(await balance()).toBe(1000);
    expect((await h.call('GET', '/api/v1/articles/fail-someone')).status).toBe(404);
  });

  it('notfound- profiles make generate answer 404 and charge nothing', async () => {
    const answer = await start('notfound-person');
    expect(answer.status).toBe(404);
    expect(await balance()).toBe(1000);
  });

  it('stuck- profiles stay queued until the queued timeout cancels and refunds them', async () => {
    const started = await start('stuck-person');
    const path = `/api/v1/jobs/${started.body.job_id}`;
    await h.advance(29 * 60_000);
    expect((await h.call('GET', path)).body.status).toBe('queued');
    expect(await balance()).toBe(900);
    await h.advance(60_000);
    const job = await h.call('GET', path);
    expect(job.body).toMatchObject({ status: 'cancelled', credits_charged: 0 });
    expect(job.body.error).toMatch(/queued/);
    expect(await balance()).toBe(1000);
    // The profile is free again once the job has ended.
    expect((await start('stuck-person', 'k2')).status).toBe(202);
  });

  it('hides another account’s job as 404, and the same account’s other key sees it', async () => {
    const started = await start('ada-lovelace');
    const path = `/api/v1/jobs/${started.body.job_id}`;
    expect((await h.call('GET', path, { key: 'key-other' })).status).toBe(404);
    expect((await h.call('GET', path, { key: 'key-0002' })).status).toBe(200);
  });

  it('answers 422 for a malformed job id and 404 for an unknown one', async () => {
    const bad = await h.call('GET', '/api/v1/jobs/not-a-uuid');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({
      loc: ['path', 'job_id'],
      type: expect.any(String),
      msg: expect.any(String),
    });
    expect((await h.call('GET', '/api/v1/jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('polling is free', async () => {
    const started = await start('ada-lovelace');
    for (let i = 0; i < 5; i++) await h.call('GET', `/api/v1/jobs/${started.body.job_id}`);
    expect(await balance()).toBe(900);
  });

  it('credits shared by all keys of an account', async () => {
    await start('ada-lovelace');
    expect(await balance('key-0002')).toBe(900);
  });
});

describe('queued timeout shorter than the queue time', () => {
  const h = useMock('http', {
    accounts: [{ id: 'a', apiKeys: ['key-0001'], credits: 500, pricing: { queued_timeout_minutes: 1 } }],
    jobs: { queuedMs: 120_000, runningMs: 1000 },
  });

  it('cancels any job queued longer than queued_timeout_minutes', async () => {
    const started = await h.call('POST', '/api/v1/articles', {
      body: { profile_id: 'slow' },
      idempotencyKey: 'k',
    });
    await h.advance(60_000);
    const job = await h.call('GET', `/api/v1/jobs/${started.body.job_id}`);
    expect(job.body.status).toBe('cancelled');
    expect(job.body.error).toBe('Job stayed queued longer than 1 minute and was cancelled');
    expect((await h.call('GET', '/api/v1/credits')).body.credits).toBe(500);
  });
});
