import { generateAndFinish, type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { describe, expect, it } from 'vitest';

describe.each<TransportKind>(['http', 'msw'])('articles over %s', (kind) => {
  const h = useMock(kind);
  const balance = async (key = 'key-0001') => (await h.call('GET', '/api/v1/credits', { key })).body.credits;

  it('reads a missing article as 404 without charging, and never starts generation', async () => {
    const answer = await h.call('GET', '/api/v1/articles/ada-lovelace');
    expect(answer.status).toBe(404);
    expect(typeof answer.body.detail).toBe('string');
    expect(await balance()).toBe(1000);
    expect(h.service.state().jobs.activeFor('ada-lovelace')).toBeUndefined();
  });

  it('generates: 202 with a queued job and 100 credits reserved', async () => {
    const answer = await h.call('POST', '/api/v1/articles', {
      body: { profile_id: 'ada-lovelace' },
      idempotencyKey: 'k1',
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      profile_id: 'ada-lovelace',
      status: 'queued',
      credits_charged: 100,
      article: null,
      error: null,
    });
    expect(await balance()).toBe(900);
  });

  it('moves a job queued → running → succeeded on the clock, with the article in the job', async () => {
    const started = await h.call('POST', '/api/v1/articles', {
      body: { profile_id: 'ada-lovelace' },
      idempotencyKey: 'k1',
    });
    const path = `/api/v1/jobs/${started.body.job_id}`;
    expect((await h.call('GET', path)).body.status).toBe('queued');
    await h.advance(1000);
    expect((await h.call('GET', path)).body.status).toBe('running');
    await h.advance(4000);
    const done = await h.call('GET', path);
    expect(done.body).toMatchObject({ status: 'succeeded', credits_charged: 100, error: null });
    expect(done.body.article).toMatchObject({ title: 'Ada Lovelace', current_version: 1 });
    expect(await balance()).toBe(900);
  });

  it('reads an existing article for 1 credit', async () => {
    await generateAndFinish(h, 'ada-lovelace');
    const answer = await h.call('GET', '/api/v1/articles/ada-lovelace');
    expect(answer.status).toBe(200);
    expect(answer.body.credits_charged).toBe(1);
    expect(answer.body.article.current_version).toBe(1);
    expect(await balance()).toBe(899);
  });

  it('generate of an existing article answers 200 with the ReadResponse for 1 credit', async () => {
    await generateAndFinish(h, 'ada-lovelace');
    const answer = await h.call('POST', '/api/v1/articles', {
      body: { profile_id: 'ada-lovelace' },
      idempotencyKey: 'k2',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.credits_charged).toBe(1);
    expect(answer.body.article.title).toBe('Ada Lovelace');
    expect(await balance()).toBe(899);
  });

  it('stores one article per profile for all accounts', async () => {
    await generateAndFinish(h, 'ada-lovelace');
    const answer = await h.call('GET', '/api/v1/articles/ada-lovelace', { key: 'key-other' });
    expect(answer.status).toBe(200);
    expect(await balance('key-other')).toBe(999);
  });

  it('answers 409 when the profile has an active job, from any account, and charges nothing', async () => {
    await h.call('POST', '/api/v1/articles', { body: { profile_id: 'ada-lovelace' }, idempotencyKey: 'k1' });
    const answer = await h.call('POST', '/api/v1/articles', {
      key: 'key-other',
      body: { profile_id: 'ada-lovelace' },
      idempotencyKey: 'k1',
    });
    expect(answer.status).toBe(409);
    expect(await balance('key-other')).toBe(1000);
  });

  it('answers 402 when the balance cannot pay, and the balance stays', async () => {
    await generateAndFinish(h, 'first', 'key-poor');
    expect(await balance('key-poor')).toBe(50);
    const answer = await h.call('POST', '/api/v1/articles', {
      key: 'key-poor',
      body: { profile_id: 'second' },
      idempotencyKey: 'k2',
    });
    expect(answer.status).toBe(402);
    expect(answer.body.detail).toMatch(/credits/i);
    expect(await balance('key-poor')).toBe(50);
  });

  it('updates: 202, then the version goes up, updated_at moves and created_at stays', async () => {
    const first = await generateAndFinish(h, 'ada-lovelace');
    await h.advance(60_000);
    const started = await h.call('POST', '/api/v1/articles/ada-lovelace/update', { idempotencyKey: 'u1' });
    expect(started.status).toBe(202);
    expect(started.body.credits_charged).toBe(100);
    expect(await balance()).toBe(800);
    await h.advance(5000);
    const done = await h.call('GET', `/api/v1/jobs/${started.body.job_id}`);
    expect(done.body.status).toBe('succeeded');
    const updated = done.body.article;
    expect(updated.current_version).toBe(2);
    expect(updated.created_at).toBe(first.article.created_at);
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(first.article.updated_at));
    expect(updated.content).not.toBe(first.article.content);
    expect(updated.article_id).toBe(first.article.article_id);
  });

  it('answers a kept balance and read only while nothing changed them', async () => {
    // The mock keeps its last balance answer and each article's read answer (with their JSON
    // text): every charge, and every new version, must show in the next answer.
    expect(await balance()).toBe(1000);
    expect(await balance()).toBe(1000);
    await generateAndFinish(h, 'ada-lovelace');
    expect(await balance()).toBe(900);
    const read = async () => (await h.call('GET', '/api/v1/articles/ada-lovelace')).body;
    const first = await read();
    expect(await balance()).toBe(899);
    expect(await read()).toEqual(first);
    expect(await balance()).toBe(898);
    await h.call('POST', '/api/v1/articles/ada-lovelace/update', { idempotencyKey: 'u1' });
    await h.advance(5000);
    const second = await read();
    expect(second.article.current_version).toBe(2);
    expect(second.article.content).not.toBe(first.article.content);
    expect(second.credits_charged).toBe(1);
    expect(await balance()).toBe(797);
  });

  it('keeps a succeeded job snapshot unchanged after a later update', async () => {
    const first = await generateAndFinish(h, 'ada-lovelace');
    const update = await h.call('POST', '/api/v1/articles/ada-lovelace/update', { idempotencyKey: 'u1' });
    await h.advance(5000);
    expect((await h.call('GET', `/api/v1/jobs/${update.body.job_id}`)).body.article.current_version).toBe(2);
    const again = await h.call('GET', `/api/v1/jobs/${first.job_id}`);
    expect(again.body.article).toEqual(first.article);
    expect((await h.call('GET', '/api/v1/articles/ada-lovelace')).body.article.current_version).toBe(2);
  });

  it('update needs an existing article (404), a key (422), credits (402) and no active job (409)', async () => {
    expect((await h.call('POST', '/api/v1/articles/nobody/update', { idempotencyKey: 'u0' })).status).toBe(
      404,
    );
    await generateAndFinish(h, 'ada-lovelace');
    expect((await h.call('POST', '/api/v1/articles/ada-lovelace/update')).status).toBe(422);
    await h.call('POST', '/api/v1/articles/ada-lovelace/update', { idempotencyKey: 'u1' });
    expect(
      (await h.call('POST', '/api/v1/articles/ada-lovelace/update', { idempotencyKey: 'u2' })).status,
    ).toBe(409);
    await h.advance(5000);
    await generateAndFinish(h, 'poor-profile', 'key-poor');
    const poor = await h.call('POST', '/api/v1/articles/ada-lovelace/update', {
      key: 'key-poor',
      idempotencyKey: 'u3',
    });
    expect(poor.status).toBe(402);
    expect(await balance('key-poor')).toBe(50);
    expect(await balance()).toBe(800);
  });

  it('writes articles that look real: citations match sources, an infobox, deterministic per slug', async () => {
    const { article } = await generateAndFinish(h, 'grace-hopper');
    expect(article.title).toBe('Grace Hopper');
    expect(article.sources.length).toBeGreaterThanOrEqual(3);
    expect(article.sources.length).toBeLessThanOrEqual(6);
    const ids = new Set(article.sources.map((s: { id: number }) => s.id));
    const refs = [...article.content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ids.has(ref)).toBe(true);
    expect(article.infobox).toMatchObject({ name: 'Grace Hopper' });
    for (const source of article.sources)
      expect(source).toMatchObject({
        title: expect.any(String),
        url: expect.stringMatching(/^https:/),
        publication: expect.any(String),
      });
    h.service.reset();
    const again = await generateAndFinish(h, 'grace-hopper');
    expect(again.article.content).toBe(article.content);
  });
});

describe('prices from the account’s terms', () => {
  const h = useMock('http', {
    accounts: [
      {
        id: 'custom',
        apiKeys: ['key-0001'],
        credits: 60,
        pricing: { read_credits: 7, generation_credits: 50 },
      },
    ],
    jobs: { queuedMs: 1000, runningMs: 4000 },
  });

  it('charges the account’s read and generation prices, and refuses a read it cannot pay', async () => {
    const balance = async () => (await h.call('GET', '/api/v1/credits')).body.credits;
    const started = await h.call('POST', '/api/v1/articles', {
      body: { profile_id: 'ada' },
      idempotencyKey: 'k',
    });
    expect(started.body.credits_charged).toBe(50);
    expect(await balance()).toBe(10);
    await h.advance(5000);
    const read = await h.call('GET', '/api/v1/articles/ada');
    expect(read.body.credits_charged).toBe(7);
    expect(await balance()).toBe(3);
    expect((await h.call('GET', '/api/v1/articles/ada')).status).toBe(402);
    expect(await balance()).toBe(3);
  });
});
