// GET /_mock/requests/count and service.countRequests: counters for account, method, route,
// status and idempotency_key (every combination exact, past the journal's 1,000 entries, since
// the start or the last reset; a key's count kept as long as the mock keeps the key), the
// journal's last 1,000 for path, request_id and since ({count, window: "journal"}). Over HTTP
// and through msw 2 and 3; the running bin in the last block.
import { API_PREFIX } from '@profile-articles/sdk/internal';
import { endpointFor, TEST_CONFIG, useMock } from '@profile-articles/test-utils/mock-harness';
import { useMockProcesses } from '@profile-articles/test-utils/mock-process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

interface Sent {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  key: string | null;
  idempotencyKey?: string;
  body?: unknown;
}

const KEYS = ['key-0001', 'key-other', 'key-limited', 'nobody-key', null] as const;

/** Paid, free, refused (401, 404, 405, 422, 429, 402) requests, some with keys. */
const anyRequest: fc.Arbitrary<Sent> = fc.oneof(
  fc.record({
    method: fc.constantFrom('GET' as const, 'DELETE' as const),
    path: fc.constant('/api/v1/credits'),
    key: fc.constantFrom(...KEYS),
  }),
  fc.record({
    method: fc.constant('GET' as const),
    path: fc.constantFrom('ada', 'fail-x', 'notfound-y').map((slug) => `/api/v1/articles/${slug}`),
    key: fc.constantFrom(...KEYS),
  }),
  fc.record({
    method: fc.constant('POST' as const),
    path: fc.constantFrom('/api/v1/articles', '/api/v1/nowhere'),
    key: fc.constantFrom(...KEYS),
    idempotencyKey: fc.constantFrom('k-1', 'k-2', 'k-3'),
    body: fc.constantFrom('ada', 'grace', 'fail-x', '').map((profile_id) => ({ profile_id })),
  }),
);

/** The route a request went to, as the fault rules name it: from the contract table, as the harness reads it. */
function routeOf(method: string, path: string): string | undefined {
  if (!path.startsWith(`${API_PREFIX}/`)) return undefined;
  const endpoint = endpointFor(method, path.slice(API_PREFIX.length));
  return endpoint ? `${endpoint.method} ${API_PREFIX}${endpoint.path}` : undefined;
}

const FILTERS = ['account', 'method', 'route', 'status', 'idempotency_key'] as const;

describe.each(['http', 'msw'] as const)('request counts over %s', (kind) => {
  const h = useMock(kind);
  const count = async (query: Record<string, string>) => {
    const answer = await h.call('GET', `/_mock/requests/count?${new URLSearchParams(query)}`);
    expect(answer.status).toBe(200);
    return answer.body as { count: number; window?: string };
  };
  const send = (request: Sent) =>
    h.call(request.method, request.path, {
      key: request.key,
      ...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
      ...(request.body === undefined ? {} : { body: request.body }),
    });

  it('counts every combination of the counted filters as the journal lists them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyRequest, { minLength: 1, maxLength: 25 }),
        fc.array(fc.subarray([...FILTERS], { minLength: 1 }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        async (requests, queries, pick) => {
          h.service.reset();
          for (const request of requests) await send(request);
          const journal = h.service.journal();
          for (const names of queries) {
            // Each filter takes the value of one journaled request, so most queries match some.
            const model = journal[pick % journal.length]!;
            const query: Record<string, string> = {};
            for (const name of names) {
              if (name === 'account') query.account = model.accountId ?? 'nobody';
              if (name === 'method') query.method = model.method.toLowerCase();
              if (name === 'route') query.route = routeOf(model.method, model.path) ?? 'GET /api/v1/credits';
              if (name === 'status') query.status = String(model.status);
              if (name === 'idempotency_key') query.idempotency_key = model.idempotencyKey ?? 'k-1';
            }
            const expected = journal.filter(
              (entry) =>
                (query.account === undefined || entry.accountId === query.account) &&
                (query.method === undefined || entry.method === query.method.toUpperCase()) &&
                (query.route === undefined || routeOf(entry.method, entry.path) === query.route) &&
                (query.status === undefined || String(entry.status) === query.status) &&
                (query.idempotency_key === undefined || entry.idempotencyKey === query.idempotency_key),
            ).length;
            expect(await count(query), JSON.stringify(query)).toEqual({ count: expected });
            const camel = {
              ...query,
              ...(query.status === undefined ? {} : { status: Number(query.status) }),
              ...(query.idempotency_key === undefined ? {} : { idempotencyKey: query.idempotency_key }),
            } as Record<string, unknown>;
            delete camel.idempotency_key;
            expect(h.service.countRequests(camel)).toEqual({ count: expected });
          }
        },
      ),
      { numRuns: kind === 'http' ? 15 : 25 },
    );
  });

  it('counts past the journal’s 1,000 entries, and from zero after a reset', async () => {
    const requests = 1_050;
    for (let i = 0; i < requests; i++)
      await send({ method: 'GET', path: '/api/v1/articles/none', key: 'key-other' });
    await send({ method: 'GET', path: '/api/v1/credits', key: 'key-0001' });
    expect(h.service.journal().length).toBe(1_000);
    const route = 'GET /api/v1/articles/{profile_id}';
    expect(await count({ route })).toEqual({ count: requests });
    // The rate limit refused some of them (as in the journal, before the account was known):
    // each status counted apart, together all of them.
    const missing = (await count({ account: 'other', route, status: '404' })).count;
    const limited = (await count({ route, status: '429' })).count;
    expect(missing).toBeGreaterThan(0);
    expect(missing + limited).toBe(requests);
    expect(await count({})).toEqual({ count: requests + 1 });
    expect(await count({ method: 'POST' })).toEqual({ count: 0 });
    // The journal's window, and the answer says so.
    expect(await count({ path: '/api/v1/articles/' })).toEqual({ count: 999, window: 'journal' });
    await h.call('POST', '/_mock/reset');
    expect(await count({})).toEqual({ count: 0 });
  }, 120_000);

  it('keeps an Idempotency-Key’s count as long as the key is kept (24 hours), per account', async () => {
    const generate = (key: string) =>
      send({
        method: 'POST',
        path: '/api/v1/articles',
        key,
        idempotencyKey: 'same',
        body: { profile_id: 'ada' },
      });
    await generate('key-0001');
    await generate('key-0001'); // a replay
    await h.advance(12 * 3_600_000);
    await generate('key-other');
    expect(await count({ idempotency_key: 'same' })).toEqual({ count: 3 });
    expect(await count({ idempotency_key: 'same', account: 'acme', status: '202' })).toEqual({ count: 2 });
    await h.advance(12 * 3_600_000);
    // acme's key has expired (and a new request with it is a new one); other's has 12 hours left.
    expect(await count({ idempotency_key: 'same' })).toEqual({ count: 1 });
    expect(await count({ idempotency_key: 'same', account: 'other' })).toEqual({ count: 1 });
    // The request is still counted without the key.
    expect(await count({ account: 'acme', route: 'POST /api/v1/articles' })).toEqual({ count: 2 });
  });

  it('answers path, request_id and since from the journal, saying so', async () => {
    const first = await send({ method: 'GET', path: '/api/v1/credits', key: 'key-0001' });
    await h.advance(1000);
    const since = new Date(h.service.now()).toISOString();
    await send({ method: 'GET', path: '/api/v1/credits', key: 'key-0001' });
    const id = first.headers.get('x-request-id')!;
    expect(await count({ request_id: id })).toEqual({ count: 1, window: 'journal' });
    expect(await count({ since })).toEqual({ count: 1, window: 'journal' });
    expect(await count({ since, route: 'GET /api/v1/credits', account: 'acme' })).toEqual({
      count: 1,
      window: 'journal',
    });
    expect(h.service.countRequests({ path: '/api/v1/cred' })).toEqual({ count: 2, window: 'journal' });
  });

  it('refuses a bad filter with a 422 naming it, as the other control endpoints do', async () => {
    const bad = async (query: string, loc: string[]) => {
      const answer = await h.call('GET', `/_mock/requests/count?${query}`);
      expect(answer.status).toBe(422);
      expect(answer.body.detail.map((issue: { loc: string[] }) => issue.loc)).toEqual([loc]);
    };
    await bad('route=GET%20%2Fapi%2Fv1%2Fnothing', ['query', 'route']);
    await bad('status=abc', ['query', 'status']);
    await bad('acount=acme', ['query', 'acount']);
    await bad('since=yesterday', ['query', 'since']);
    await bad('limit=5', ['query', 'limit']);
    expect(() => h.service.countRequests({ route: 'GET /nowhere' as never })).toThrow(/route/);
  });

  it('refuses an in-process filter it does not know, as HTTP does, instead of matching everything', async () => {
    await send({ method: 'GET', path: `${API_PREFIX}/credits`, key: 'key-0001' });
    const unknown = { idempotency_key: 'a' } as never;
    expect(() => h.service.countRequests(unknown)).toThrow(
      /unknown filter "idempotency_key" \(did you mean "idempotencyKey"\?\)/,
    );
    expect(() => h.service.journal(unknown)).toThrow(/unknown filter "idempotency_key"/);
    expect(() => h.service.countRequests({ statuss: 402 } as never)).toThrow(/unknown filter "statuss"/);
    expect(() => h.service.journal('acme' as never)).toThrow(/an object of filters/);
    expect(h.service.countRequests({ idempotencyKey: 'a' })).toEqual({ count: 0 });
    expect(h.service.countRequests({})).toEqual({ count: 1 });
  });
});

describe('request counts and seeded articles, the running bin', () => {
  const start = useMockProcesses();

  it('counts over HTTP, behind the admin token as the other control endpoints are', async () => {
    const mock = await start({ ...TEST_CONFIG, adminToken: 'admin-token-0001' });
    const admin = { authorization: 'Bearer admin-token-0001' };
    for (let i = 0; i < 3; i++)
      await fetch(`${mock.url}/api/v1/credits`, { headers: { authorization: 'Bearer key-0001' } });
    const refused = await fetch(`${mock.url}/_mock/requests/count`);
    expect(refused.status).toBe(401);
    const counted = await fetch(`${mock.url}/_mock/requests/count?account=acme&status=200`, {
      headers: admin,
    });
    expect(await counted.json()).toEqual({ count: 3 });
    const foreign = await fetch(`${mock.url}/_mock/requests/count`, {
      headers: { ...admin, origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });

  it('seeds an article over HTTP behind the admin token, which the API then serves', async () => {
    const mock = await start({ ...TEST_CONFIG, adminToken: 'admin-token-0001' });
    const body = JSON.stringify({ profileId: 'ada', title: 'Seeded' });
    const headers = { 'content-type': 'application/json' };
    const refused = await fetch(`${mock.url}/_mock/articles`, { method: 'POST', headers, body });
    expect(refused.status).toBe(401);
    const created = await fetch(`${mock.url}/_mock/articles`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer admin-token-0001' },
      body,
    });
    expect(created.status).toBe(201);
    const read = await fetch(`${mock.url}/api/v1/articles/ada`, {
      headers: { authorization: 'Bearer key-0001' },
    });
    expect(((await read.json()) as { article: { title: string } }).article.title).toBe('Seeded');
  });
});
