// client.request(): one request the caller spells, against the real mock over HTTP (its journal
// says what was sent, how often, with which Idempotency-Key), and a scripted server where the
// mock cannot answer as a test needs (a path the interface does not list, a body that breaks
// the table's schema). It goes through the client's own transport: retries, the spend limit,
// pacing, errors and the key's redaction are those of every method.
import { useMockServer } from '@profile-articles/test-utils/mock-suite';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { reply } from '@profile-articles/test-utils/scripted-server';
import { describe, expect, it } from 'vitest';
import { rawErrorBody } from '../src/internal.js';
import {
  type ClientOptions,
  InvalidArgumentError,
  NotFoundError,
  ProfileArticles,
  RateLimitError,
  ServerError,
  SpendLimitError,
} from '../src/node.js';
import { TRANSPORTS, useScriptedServers } from './scripted-client.js';

const KEY = 'key-raw-request-1';
const mock = useMockServer({
  accounts: [{ id: 'raw', apiKeys: [KEY], credits: 1_000, pricing: { requests_per_minute: 100_000 } }],
  jobs: { queuedMs: 60_000, runningMs: 60_000 },
});

/** What the mock heard below /api/v1, oldest first (the journal lists the newest first). */
const heard = (path: string) =>
  mock.service
    .journal()
    .filter((entry) => entry.path.startsWith(`/api/v1${path}`))
    .reverse();
const setFaults = (rules: unknown[]) => mock.service.setFaults({ seed: 1, rules } as never);

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const client = (extra: ClientOptions = {}) =>
    new ProfileArticles({ apiKey: KEY, baseUrl: mock.url, maxRetries: 2, ...options, ...extra });
  const { setup } = useScriptedServers({ ...options, maxRetries: 2 });

  it('resolves to the JSON body as it came, below /api/v1 or from /api/, as an ApiPromise', async () => {
    const sdk = client();
    const balance = (await sdk.request({ method: 'GET', path: '/credits' })) as { credits: number };
    expect(balance).toEqual(await sdk.credits.balance());
    await expect(sdk.request({ method: 'GET', path: '/api/v1/credits' })).resolves.toEqual(balance);
    const { data, response, requestId } = await sdk
      .request({ method: 'get', path: '/credits' } as never)
      .withResponse();
    expect(data).toEqual(balance);
    expect(response.status).toBe(200);
    expect(requestId).toBe(heard('/credits').at(-1)?.requestId);
    const raw = await sdk.request({ method: 'GET', path: '/credits' }).asResponse();
    expect(await raw.json()).toEqual(balance);
  });

  it('adds `query` to the path, encoded, after any query the path has', async () => {
    const { server, client: sdk } = await setup([reply(200, {}), reply(200, {})]);
    await sdk.request({ method: 'GET', path: '/things?a=1', query: { 'b c': 'd&e', n: 2, skip: undefined } });
    await sdk.request({ method: 'GET', path: '/things', query: { on: true } });
    expect(server.received.map((received) => received.url)).toEqual([
      '/api/v1/things?a=1&b%20c=d%26e&n=2',
      '/api/v1/things?on=true',
    ]);
  });

  it('POST /credits/checkout keeps its rule: a 500 is not retried, a 429 is', async () => {
    const sdk = client();
    await setFaults([{ route: 'POST /api/v1/credits/checkout', kind: 'fail', probability: 1 }]);
    await rejectionOf(
      sdk.request({ method: 'POST', path: '/credits/checkout', body: { credits: 100 } }),
      ServerError,
    );
    expect(heard('/credits/checkout')).toHaveLength(1);
    expect(heard('/credits/checkout')[0]?.idempotencyKey).toBeNull();
    await setFaults([
      { route: 'POST /api/v1/credits/checkout', kind: 'rate-limit', probability: 1, retryAfterSeconds: 0 },
    ]);
    await rejectionOf(
      sdk.request({ method: 'POST', path: '/credits/checkout', body: { credits: 100 } }),
      RateLimitError,
    );
    expect(heard('/credits/checkout')).toHaveLength(4);
    // And it takes no Idempotency-Key, which would promise a safety the interface does not give.
    const error = await rejectionOf(
      sdk.request({
        method: 'POST',
        path: '/credits/checkout',
        body: { credits: 100 },
        idempotencyKey: 'k-1',
      }),
      InvalidArgumentError,
    );
    expect(error.message).toMatch(/takes no idempotencyKey/);
    expect(heard('/credits/checkout')).toHaveLength(4);
  });

  it('a generate through request() is retried with one Idempotency-Key, and that key replays it', async () => {
    const sdk = client();
    await setFaults([{ route: 'POST /api/v1/articles', kind: 'lost', probability: 1 }]);
    const error = await rejectionOf(
      sdk.request({ method: 'POST', path: '/articles', body: { profile_id: 'raw-ada' } }),
      ServerError,
    );
    const keys = heard('/articles').map((entry) => entry.idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(new Set(keys)).toEqual(new Set([error.idempotencyKey]));
    expect(error.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    await setFaults([]);
    const job = (await sdk.request({
      method: 'POST',
      path: '/articles',
      body: { profile_id: 'raw-ada' },
      idempotencyKey: error.idempotencyKey as string,
    })) as { job_id: string; credits_charged: number };
    // The lost attempt's job, replayed: charged once.
    const charged = mock.service
      .journal()
      .filter((entry) => entry.path === '/api/v1/articles' && entry.status === 202);
    expect(charged).toHaveLength(1);
    expect(job.job_id).toMatch(/./);
  });

  it('a paid endpoint keeps its price: held against spendLimit before sending, and counted in spent', async () => {
    const sdk = client({ spendLimit: 150 });
    await sdk.request({ method: 'POST', path: '/articles', body: { profile_id: 'raw-paid' } });
    expect(sdk.spent).toBe(100);
    const before = heard('/articles').length;
    await rejectionOf(sdk.request({ method: 'POST', path: '/articles/raw-paid/update' }), SpendLimitError);
    expect(heard('/articles')).toHaveLength(before);
    // A read of a profile without an article is free (404), as the method's is.
    await rejectionOf(sdk.request({ method: 'GET', path: '/articles/raw-none' }), NotFoundError);
    expect(sdk.spent).toBe(100);
  });

  it('a non-2xx is the typed error, its JSON body kept for the CLI, the key in neither', async () => {
    const sdk = client();
    const error = await rejectionOf(
      sdk.request({ method: 'GET', path: '/jobs/00000000-0000-4000-8000-000000000000' }),
      NotFoundError,
    );
    expect(rawErrorBody(error)).toEqual({ detail: expect.any(String) });
    expect(JSON.stringify(rawErrorBody(error))).not.toContain(KEY);
    expect(Object.keys(error)).not.toContain('body');
  });

  it('refuses, before sending: a body on a GET, a key on a GET, a method it does not send, a dot segment', async () => {
    const sdk = client();
    const before = mock.service.journal().length;
    for (const request of [
      { method: 'GET', path: '/credits', body: {} },
      { method: 'GET', path: '/credits', idempotencyKey: 'k' },
      { method: 'TRACE', path: '/credits' },
      { method: 'POST', path: '/articles', body: { profile_id: 'x' }, idempotencyKey: ' padded ' },
      { method: 'GET', path: '/credits/../x' },
      { method: 'GET', path: 'credits' },
    ]) {
      await rejectionOf(sdk.request(request as never), InvalidArgumentError);
    }
    expect(mock.service.journal()).toHaveLength(before);
  });

  it('another POST carries an Idempotency-Key and is retried as generate is; another path’s answer is not checked', async () => {
    const { server, client: sdk } = await setup([
      reply(503, { detail: 'busy' }),
      reply(200, { anything: ['the', 'server', 'says'] }),
    ]);
    const data = await sdk.request({ method: 'POST', path: '/articles/ada/summarize', body: { words: 50 } });
    expect(data).toEqual({ anything: ['the', 'server', 'says'] });
    const keys = server.received.map((received) => received.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(server.received.map((received) => received.url)).toEqual([
      '/api/v1/articles/ada/summarize',
      '/api/v1/articles/ada/summarize',
    ]);
  });

  it('an answer is given back as it came, fields the SDK does not model included, checked by no schema', async () => {
    const { client: sdk } = await setup([
      reply(200, { credits: 3, pricing: {}, loyalty_tier: 'gold' }),
      reply(200, { article: 'not an article' }),
    ]);
    await expect(sdk.request({ method: 'GET', path: '/credits' })).resolves.toEqual({
      credits: 3,
      pricing: {},
      loyalty_tier: 'gold',
    });
    // A paid read whose answer does not say what it cost: its worst case counts, as for asResponse().
    await expect(sdk.request({ method: 'GET', path: '/articles/ada' })).resolves.toEqual({
      article: 'not an article',
    });
    expect(sdk.spent).toBe(1);
  });
});
