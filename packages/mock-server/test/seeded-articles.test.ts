// Seeded articles (PRODUCT.md): config `articles` exist at start and after a reset, at no charge
// to anyone; `POST /_mock/articles` (201 with the stored Article, 409 when one exists, 422 for bad
// input) and `service.seedArticle`. Over HTTP and through msw 2 and 3; the running bin with
// --data in seeded-articles-data.test.ts.
import { type MockConfig, normalizeConfig } from '@profile-articles/mock-server';
import { ArticleSchema } from '@profile-articles/sdk/schemas';
import { TEST_CONFIG, useMock } from '@profile-articles/test-utils/mock-harness';
import { describe, expect, it } from 'vitest';

const SOURCES = [
  { id: 1, title: 'Notes', url: 'https://example.org/notes', publication: null, excerpt: null },
];
const CONFIG: MockConfig = {
  ...TEST_CONFIG,
  articles: [
    {
      profileId: 'ada-lovelace',
      title: 'Augusta Ada King',
      content: 'Wrote the first program [1].',
      sources: SOURCES,
    },
    { profileId: 'grace-hopper' },
  ],
};

describe.each(['http', 'msw'] as const)('seeded articles over %s', (kind) => {
  const h = useMock(kind, CONFIG);
  const seed = (body: unknown) => h.call('POST', '/_mock/articles', { body });

  it('has the config’s articles at start, as given, charged to nobody', async () => {
    const read = await h.call('GET', '/api/v1/articles/ada-lovelace');
    expect(read.status).toBe(200);
    expect(read.body.article).toMatchObject({
      title: 'Augusta Ada King',
      content: 'Wrote the first program [1].',
      sources: SOURCES,
      current_version: 1,
    });
    // Fields not given are written as a job would write them.
    expect(read.body.article.infobox).toMatchObject({ name: 'Ada Lovelace' });
    const generated = await h.call('GET', '/api/v1/articles/grace-hopper');
    expect(generated.body.article.title).toBe('Grace Hopper');
    // Only the two reads were charged; seeding moved no credit of any account.
    expect(h.service.ledger().entries.map((entry) => [entry.accountId, entry.kind, entry.credits])).toEqual([
      ['acme', 'charge', 1],
      ['acme', 'charge', 1],
    ]);
    for (const account of ['other', 'poor', 'limited'])
      expect(h.service.balance(account)).toBe(CONFIG.accounts!.find((a) => a.id === account)!.credits);
  });

  it('has them again after a reset, and a generate answers them for 1 credit', async () => {
    await h.call('POST', '/_mock/reset');
    const generate = await h.call('POST', '/api/v1/articles', {
      body: { profile_id: 'ada-lovelace' },
      idempotencyKey: 'g1',
    });
    expect(generate.status).toBe(200);
    expect(generate.body).toMatchObject({ credits_charged: 1, article: { title: 'Augusta Ada King' } });
  });

  it('POST /_mock/articles answers 201 with the stored Article, which the API then reads', async () => {
    const infobox = { born: 1906 };
    const before = h.service.now();
    const created = await seed({ profileId: 'margaret-hamilton', title: 'Margaret Hamilton', infobox });
    const after = h.service.now();
    expect(created.status).toBe(201);
    expect(ArticleSchema.safeParse(created.body).success).toBe(true);
    expect(created.body).toMatchObject({ title: 'Margaret Hamilton', infobox, current_version: 1 });
    // Made now, on the mock's clock.
    const at = Date.parse(created.body.created_at);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
    expect(created.body.updated_at).toBe(created.body.created_at);
    const read = await h.call('GET', '/api/v1/articles/margaret-hamilton');
    expect(read.body.article).toEqual(created.body);
    expect(h.service.balance('acme')).toBe(999);
    // An update writes version 2, generated as updates are; the seed was version 1.
    const update = await h.call('POST', '/api/v1/articles/margaret-hamilton/update', {
      idempotencyKey: 'u1',
    });
    expect(update.status).toBe(202);
    await h.advance(5000);
    const updated = await h.call('GET', '/api/v1/articles/margaret-hamilton');
    expect(updated.body.article).toMatchObject({ current_version: 2, article_id: created.body.article_id });
  });

  it('answers 409 {detail} when the profile has an article or a job under way, and seeds nothing', async () => {
    const exists = await seed({ profileId: 'ada-lovelace', title: 'Another' });
    expect(exists.status).toBe(409);
    expect(exists.body.detail).toContain('ada-lovelace');
    await h.call('POST', '/api/v1/articles', { body: { profile_id: 'new-one' }, idempotencyKey: 'n1' });
    const busy = await seed({ profileId: 'new-one' });
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toMatch(/job/);
    expect((await h.call('GET', '/api/v1/articles/ada-lovelace')).body.article.title).toBe(
      'Augusta Ada King',
    );
  });

  it('answers 422 naming each field at fault, as the other control endpoints do', async () => {
    const bad = async (body: unknown, locs: unknown[]) => {
      const answer = await seed(body);
      expect(answer.status).toBe(422);
      expect(answer.body.detail.map((issue: { loc: unknown }) => issue.loc)).toEqual(locs);
    };
    await bad({}, [['body', 'profileId']]);
    await bad({ profileId: '' }, [['body', 'profileId']]);
    await bad({ profileId: 'x', title: 3, extra: true }, [
      ['body', 'title'],
      ['body', 'extra'],
    ]);
    await bad({ profileId: 'x', sources: [{ id: 'one', title: 't' }] }, [['body', 'sources', 0, 'id']]);
    await bad({ profileId: 'x', infobox: [] }, [['body', 'infobox']]);
    const notJson = await h.call('POST', '/_mock/articles', {
      rawBody: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(422);
  });

  it('service.seedArticle returns the stored Article, and throws when one exists or the input is bad', () => {
    const article = h.service.seedArticle({ profileId: 'katherine-johnson', content: '# Katherine Johnson' });
    expect(article).toMatchObject({
      title: 'Katherine Johnson',
      content: '# Katherine Johnson',
      current_version: 1,
    });
    expect(h.service.state().articles.get('katherine-johnson')).toEqual(article);
    expect(() => h.service.seedArticle({ profileId: 'katherine-johnson' })).toThrow(/exists already/);
    expect(() => h.service.seedArticle({ profileId: '..' })).toThrow(/seedArticle\.profileId/);
  });
});

describe('config articles', () => {
  it('refuses a profile seeded twice, or a bad field, naming it', () => {
    expect(() => normalizeConfig({ articles: [{ profileId: 'a' }, { profileId: 'a' }] })).toThrow(
      /articles\.1\.profileId: "a" is seeded twice/,
    );
    expect(() => normalizeConfig({ articles: [{ profileId: 'a', title: 1 }] })).toThrow(/articles\.0\.title/);
  });

  it('normalises to the same shape, so a normalised config normalises again', () => {
    const once = normalizeConfig(CONFIG);
    expect(normalizeConfig(once)).toEqual(once);
  });
});
