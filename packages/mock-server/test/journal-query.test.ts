// GET /_mock/requests as a journal you can query: filters, newest first, request ids, and with
// config `journal.bodies` the bodies, keys redacted and each cut at 64 KiB. Over real HTTP.
import { TEST_CONFIG, useMock } from '@profile-articles/test-utils/mock-harness';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** PRODUCT.md: each body cut at 64 KiB. */
const MAX_BODY_EXCERPT_BYTES = 64 * 1024;

interface Sent {
  method: 'GET' | 'POST';
  path: string;
  key: string | null;
  idempotencyKey?: string;
  body?: unknown;
}

const KEYS = ['key-0001', 'key-other', 'nobody-key', null] as const;
const ACCOUNT_OF: Record<string, string | null> = { 'key-0001': 'acme', 'key-other': 'other' };

/** A request of the API: paid, free, refused (401, 404, 422), with slugs of any Unicode. */
const anyRequest: fc.Arbitrary<Sent> = fc.oneof(
  fc.record({
    method: fc.constant('GET' as const),
    path: fc.constant('/api/v1/credits'),
    key: fc.constantFrom(...KEYS),
  }),
  fc.record({
    method: fc.constant('GET' as const),
    path: fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
      .map((slug) => `/api/v1/articles/${encodeURIComponent(slug)}`),
    key: fc.constantFrom(...KEYS),
  }),
  fc.record({
    method: fc.constant('POST' as const),
    path: fc.constant('/api/v1/articles'),
    key: fc.constantFrom(...KEYS),
    idempotencyKey: fc.constantFrom('k-1', 'k-2', 'k-3'),
    body: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((profile_id) => ({ profile_id })),
  }),
);

/** Filters as a test picks them, with the value of a request it sent (or a value none has). */
const anyFilterName = fc.constantFrom(
  'account',
  'method',
  'path',
  'status',
  'idempotency_key',
  'request_id',
  'since',
  'limit',
);

describe('the journal over HTTP', () => {
  const h = useMock('http');

  const send = async (request: Sent) => {
    const answer = await h.call(request.method, request.path, {
      key: request.key,
      ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    return { ...request, status: answer.status, requestId: answer.headers.get('x-request-id')! };
  };

  it('answers every filter with exactly the requests that match it, newest first', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyRequest, { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(anyFilterName, fc.nat()), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('GET', 'get', 'Post'),
        async (requests, picks, methodSpelling) => {
          h.service.reset();
          const sent = [];
          for (const request of requests) {
            sent.push(await send(request));
            await h.advance(1000); // so that `since` splits them
          }
          const all = await h.call('GET', '/_mock/requests', { key: null });
          expect(all.status).toBe(200);
          // Newest first, each with the id its answer carried.
          expect(all.body.requests.map((entry: { requestId: string }) => entry.requestId)).toEqual(
            sent.map((request) => request.requestId).reverse(),
          );
          const journal = all.body.requests as Array<Record<string, unknown>>;

          const params = new URLSearchParams();
          let expected = journal;
          for (const [name, n] of picks) {
            if (params.has(name)) continue;
            const model = sent[n % sent.length]!;
            const entry = journal[sent.length - 1 - (n % sent.length)]!;
            switch (name) {
              case 'account': {
                const account = (model.key && ACCOUNT_OF[model.key]) ?? 'other';
                params.set(name, account);
                expected = expected.filter((e) => e.accountId === account);
                break;
              }
              case 'method':
                params.set(name, model.method === 'GET' ? methodSpelling : 'post');
                expected = expected.filter((e) => e.method === params.get(name)!.toUpperCase());
                break;
              case 'path': {
                const prefix = model.path.slice(0, 1 + (n % model.path.length));
                params.set(name, prefix);
                expected = expected.filter((e) => (e.path as string).startsWith(prefix));
                break;
              }
              case 'status':
                params.set(name, String(model.status));
                expected = expected.filter((e) => e.status === model.status);
                break;
              case 'idempotency_key':
                params.set(name, model.idempotencyKey ?? 'k-none');
                expected = expected.filter((e) => e.idempotencyKey === (model.idempotencyKey ?? 'k-none'));
                break;
              case 'request_id':
                params.set(name, model.requestId);
                expected = expected.filter((e) => e.requestId === model.requestId);
                break;
              case 'since':
                params.set(name, entry.at as string);
                expected = expected.filter(
                  (e) => Date.parse(e.at as string) >= Date.parse(entry.at as string),
                );
                break;
              case 'limit':
                params.set(name, String(1 + (n % 5)));
                break;
            }
          }
          const limit = params.has('limit') ? Number(params.get('limit')) : Number.POSITIVE_INFINITY;
          const filtered = await h.call('GET', `/_mock/requests?${params}`, { key: null });
          expect(filtered.status, String(params)).toBe(200);
          expect(filtered.body.requests, String(params)).toEqual(expected.slice(0, limit));
          // The same filters in process.
          const query = Object.fromEntries(params);
          expect(
            h.service.journal({
              ...(query.account === undefined ? {} : { account: query.account }),
              ...(query.method === undefined ? {} : { method: query.method }),
              ...(query.path === undefined ? {} : { path: query.path }),
              ...(query.status === undefined ? {} : { status: Number(query.status) }),
              ...(query.idempotency_key === undefined ? {} : { idempotencyKey: query.idempotency_key }),
              ...(query.request_id === undefined ? {} : { requestId: query.request_id }),
              ...(query.since === undefined ? {} : { since: Date.parse(query.since) }),
              ...(query.limit === undefined ? {} : { limit: Number(query.limit) }),
            }),
          ).toEqual(filtered.body.requests);
        },
      ),
      { numRuns: 15 },
    );
  }, 60_000);

  it('refuses a malformed or unknown filter with a 422 naming it', async () => {
    for (const [query, name] of [
      ['status=abc', 'status'],
      ['status=600', 'status'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['since=yesterday', 'since'],
      ['since=2026-13-45T00:00:00Z', 'since'],
      ['acount=acme', 'acount'],
      ['method=GET&method=POST', 'method'],
    ] as const) {
      const answer = await h.call('GET', `/_mock/requests?${query}`, { key: null });
      expect(answer.status, query).toBe(422);
      expect(answer.body.detail[0].loc, query).toEqual(['query', name]);
    }
  });

  it('keeps no bodies unless the config asks for them', async () => {
    await h.call('POST', '/api/v1/articles', { body: { profile_id: 'ada' }, idempotencyKey: 'k' });
    const [entry] = (await h.call('GET', '/_mock/requests', { key: null })).body.requests;
    expect(entry).not.toHaveProperty('requestBody');
    expect(entry).not.toHaveProperty('responseBody');
  });
});

describe('the journal with bodies', () => {
  const h = useMock('http', { ...TEST_CONFIG, adminToken: 'admin-secret-1', journal: { bodies: true } });
  const admin = { authorization: 'Bearer admin-secret-1' };
  const journal = async (query = '') =>
    (await h.call('GET', `/_mock/requests${query}`, { key: null, headers: admin })).body.requests;

  it('holds the request and the answer, every key and the admin token redacted, however spelt', async () => {
    // A client that puts keys where they do not belong: as the slug, and spelt with JSON escapes.
    const started = await h.call('POST', '/api/v1/articles', {
      rawBody: '{"profile_id":"key-0001 \\u006bey-other admin-secret-1"}',
      headers: { 'content-type': 'application/json' },
      idempotencyKey: 'k-bodies',
    });
    expect(started.status).toBe(202);
    const [entry] = await journal();
    expect(entry.requestBody).toEqual({
      text: '{"profile_id":"[redacted] [redacted] [redacted]"}',
      truncated: false,
    });
    expect(entry.responseBody.truncated).toBe(false);
    expect(JSON.parse(entry.responseBody.text)).toMatchObject({
      job_id: started.body.job_id,
      status: 'queued',
    });
    const text = JSON.stringify(await journal());
    for (const secret of ['key-0001', 'key-other', 'admin-secret-1']) expect(text).not.toContain(secret);
    // A GET has no request body; its answer is kept.
    await h.call('GET', '/api/v1/credits');
    const [read] = await journal('?method=GET');
    expect(read.requestBody).toBeNull();
    expect(JSON.parse(read.responseBody.text)).toMatchObject({ credits: 900 });
  });

  it('redacts a percent-encoded key in the body the service itself keeps, as over HTTP', async () => {
    // The in-process journal (service.journal()) shows the same excerpt /_mock/requests does:
    // key-0001 spelt as a URL-encoder would write it, in lower-case hex and every byte encoded.
    const spellings = ['key%2d0001', '%6b%65%79%2D%30%30%30%31'];
    const started = await h.call('POST', '/api/v1/articles', {
      rawBody: JSON.stringify({ profile_id: spellings.join(' ') }),
      headers: { 'content-type': 'application/json' },
      idempotencyKey: 'k-bodies-percent',
    });
    expect(started.status).toBe(202);
    const [entry] = h.service.journal();
    expect(entry?.requestBody).toEqual({ text: '{"profile_id":"[redacted] [redacted]"}', truncated: false });
  });

  it('cuts each body at 64 KiB of UTF-8, never inside a character, and marks it', async () => {
    // Up to 1 MiB is taken; a 4-byte character straddles the cut.
    const pad = `${'a'.repeat(MAX_BODY_EXCERPT_BYTES - 20)}${'😀'.repeat(100_000)}`;
    const answer = await h.call('POST', '/api/v1/articles', {
      body: { profile_id: 'x', pad },
      idempotencyKey: 'k-long',
    });
    expect(answer.status).toBe(422);
    const [entry] = await journal();
    expect(entry.requestBody.truncated).toBe(true);
    const bytes = Buffer.byteLength(entry.requestBody.text);
    expect(bytes).toBeLessThanOrEqual(MAX_BODY_EXCERPT_BYTES);
    expect(bytes).toBeGreaterThan(MAX_BODY_EXCERPT_BYTES - 4);
    expect(entry.requestBody.text).not.toContain('\uFFFD');
    expect(`{"profile_id":"x","pad":"${pad}"}`.startsWith(entry.requestBody.text)).toBe(true);
  });
});
