// A client given a `fetch` (a tracing wrapper, undici's own, a test's stub, Bun's or Deno's): the
// SDK calls it as openai-node and stripe-node call theirs, `fetch(url, init)` with a plain init,
// and bounds the wait for headers itself, so even a fetch that ignores its signal cannot hold a
// call past `timeoutMs`, and the init's signal tells a fetch that does listen when to let go.
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { startMock } from '@profile-articles/test-utils/start-mock';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileArticles, TimeoutError } from '../src/index.js';

const BALANCE = { credits: 7, pricing: {} };
const answer = () =>
  new Response(JSON.stringify(BALANCE), { status: 200, headers: { 'content-type': 'application/json' } });

function clientWith(fetch: typeof globalThis.fetch, more: Record<string, unknown> = {}) {
  return new ProfileArticles({
    apiKey: 'sk-given',
    baseUrl: 'https://api.test',
    fetch,
    maxRetries: 0,
    ...more,
  });
}

describe('a given fetch, against the mock over HTTP', () => {
  let baseUrl = '';
  let close: () => Promise<void> | void = () => {};
  beforeAll(async () => {
    const mock = await startMock('http', { accounts: [{ id: 'a', apiKeys: ['key-acme-1'], credits: 500 }] });
    baseUrl = mock.baseUrl;
    close = mock.close;
  });
  afterAll(() => close());

  // The tracing wrapper openai-node users write. When the SDK handed over a Request, this init
  // replaced the Request's headers: the key was gone, and the server answered 401.
  it("keeps the SDK's headers when a wrapper spreads the init and adds one of its own", async () => {
    const sent: string[] = [];
    const sdk = new ProfileArticles({
      apiKey: 'key-acme-1',
      baseUrl,
      defaultHeaders: { 'x-team': 'billing' },
      fetch: (url, init) => {
        sent.push(`${init?.method} ${String(url)}`);
        return fetch(url, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), 'x-span': 's1' },
        });
      },
    });
    const { data, response } = await sdk.articles.generate('ada-lovelace').withResponse();
    expect(data).toMatchObject({ profile_id: 'ada-lovelace' });
    expect(response.status).toBe(202);
    expect(sent).toEqual([`POST ${baseUrl}/api/v1/articles`]);
  });

  // workerd's fetch is a method of the global scope: called with any other `this` (as
  // `options.fetch(url, init)` once called it) it throws "Illegal invocation", and every call
  // failed as a ConnectionError on Cloudflare Workers.
  it('calls the fetch unbound: one that refuses any `this` but undefined or globalThis works', async () => {
    const receivers: unknown[] = [];
    const strictFetch = function (this: unknown, url: RequestInfo | URL, init?: RequestInit) {
      receivers.push(this);
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      return fetch(url, init);
    } as typeof fetch;
    const sdk = new ProfileArticles({ apiKey: 'key-acme-1', baseUrl, fetch: strictFetch, maxRetries: 0 });
    await expect(sdk.credits.balance()).resolves.toMatchObject({ credits: expect.any(Number) });
    expect(receivers).toHaveLength(1);
    expect(receivers[0] === undefined || receivers[0] === globalThis).toBe(true);
  });

  // undici's own fetch (for its ProxyAgent, say) is another realm's fetch: it could not read the
  // Request the SDK made, and the call failed as a ConnectionError naming ERR_INVALID_URL.
  it("works with undici's fetch from npm", async () => {
    const sdk = new ProfileArticles({ apiKey: 'key-acme-1', baseUrl, fetch: undiciFetch as typeof fetch });
    await expect(sdk.credits.balance()).resolves.toMatchObject({ credits: expect.any(Number) });
  });
});

describe('a given fetch', () => {
  it("gets the URL and a plain init: method, headers, JSON body, fetchOptions under the SDK's own", async () => {
    const calls: Array<{ url: unknown; init: RequestInit | undefined }> = [];
    const sdk = clientWith(async (url, init) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ session_id: 's', url: 'https://pay.test/s' }), { status: 200 });
    });
    await sdk.credits.checkout(100, { fetchOptions: { cache: 'no-store' } });
    await sdk.credits.balance().catch(() => {});
    const [checkout, balance] = calls;
    expect(checkout?.url).toBe('https://api.test/api/v1/credits/checkout');
    expect(checkout?.init).toMatchObject({
      cache: 'no-store',
      method: 'POST',
      redirect: 'manual',
      body: '{"credits":100}',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-given' },
    });
    expect(checkout?.init?.signal).toBeInstanceOf(AbortSignal);
    expect(balance?.url).toBe('https://api.test/api/v1/credits');
    expect(balance?.init?.method).toBe('GET');
    expect(balance?.init?.body).toBeUndefined();
    expect(balance?.init?.headers).not.toHaveProperty('content-type');
    expect(balance?.init).not.toHaveProperty('cache');
  });

  it("ends at timeoutMs with TimeoutError even when the fetch ignores its signal, and aborts the init's signal", async () => {
    let signal: AbortSignal | undefined;
    const sdk = clientWith(
      (_url, init) => {
        signal = init?.signal ?? undefined;
        return new Promise<Response>(() => {});
      },
      { timeoutMs: 50 },
    );
    const started = Date.now();
    const error = await rejectionOf(sdk.credits.balance(), TimeoutError);
    expect(error.message).toBe('GET /credits timed out after 50 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(signal?.aborted).toBe(true);
  });

  // A wrapper that logs what its fetch rejected with, as tracing code does. The limit once aborted
  // the signal with a Symbol: fetch rejected with it, and `${error}` in the wrapper threw.
  it('aborts the signal at the time limit with an error a wrapper can log: a TimeoutError DOMException', async () => {
    const logged: string[] = [];
    const sdk = clientWith(
      async (url, init) => {
        try {
          return await new Promise<Response>((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
          });
        } catch (error) {
          logged.push(`${String(url)} failed: ${error}`);
          throw error;
        }
      },
      { timeoutMs: 50 },
    );
    await rejectionOf(sdk.credits.balance(), TimeoutError);
    expect(logged).toEqual([
      'https://api.test/api/v1/credits failed: TimeoutError: GET /credits timed out after 50 ms',
    ]);
  });

  it("passes the caller's abort to the init's signal, and rejects with the caller's reason", async () => {
    let signal: AbortSignal | undefined;
    const controller = new AbortController();
    const sdk = clientWith((_url, init) => {
      signal = init?.signal ?? undefined;
      setTimeout(() => controller.abort(new Error('caller stopped')), 10);
      return new Promise<Response>(() => {});
    });
    const error = await rejectionOf(sdk.credits.balance({ signal: controller.signal }));
    expect(error.message).toBe('caller stopped');
    expect(signal?.aborted).toBe(true);
  });

  it("answers as before once headers came: the time limit no longer aborts the init's signal", async () => {
    let signal: AbortSignal | undefined;
    const sdk = clientWith(
      async (_url, init) => {
        signal = init?.signal ?? undefined;
        return answer();
      },
      // Room for a busy machine to answer in time; the wait below then runs past the limit.
      { timeoutMs: 1_000 },
    );
    const started = Date.now();
    await expect(sdk.credits.balance()).resolves.toMatchObject({ credits: 7 });
    await new Promise((resolve) => setTimeout(resolve, 1_100 - (Date.now() - started)));
    expect(signal?.aborted).toBe(false);
  });
});
