// The SDK calls its fetch unbound. workerd's fetch (Cloudflare Workers) checks its receiver and
// throws "Illegal invocation" when called as a method of anything but the global, so an SDK that
// called `options.fetch(url, init)` failed every call there as a ConnectionError. The fetch here
// makes the same check as workerd's, and sends over real HTTP to the mock when it passes.
// `pnpm check:runtimes` proves the same on workerd itself (scripts/runtimes/edge-smoke.mjs).
import { startMock } from '@profile-articles/test-utils/start-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProfileArticles } from '../src/index.js';

const realFetch = globalThis.fetch;
const receivers: unknown[] = [];

/** A fetch with workerd's receiver check. */
function brandCheckedFetch(this: unknown, input: string | URL | Request, init?: RequestInit) {
  receivers.push(this);
  if (this !== undefined && this !== globalThis) return Promise.reject(new TypeError('Illegal invocation'));
  return realFetch(input, init);
}

describe('a fetch that refuses to be called as a method (workerd)', () => {
  let baseUrl = '';
  let close: () => Promise<void> | void = () => {};
  beforeAll(async () => {
    const mock = await startMock('http', {
      accounts: [{ id: 'a', apiKeys: ['key-unbound-1'], credits: 300 }],
    });
    baseUrl = mock.baseUrl;
    close = mock.close;
  });
  afterAll(() => close());
  afterEach(() => {
    vi.unstubAllGlobals();
    receivers.length = 0;
  });

  it('is called unbound when given as the fetch option', async () => {
    const client = new ProfileArticles({ apiKey: 'key-unbound-1', baseUrl, fetch: brandCheckedFetch });
    expect((await client.credits.balance()).credits).toBe(300);
    expect(receivers).toEqual([undefined]);
  });

  it("is called unbound as the default fetch (globalThis.fetch off Node's entry)", async () => {
    vi.stubGlobal('fetch', brandCheckedFetch);
    const client = new ProfileArticles({ apiKey: 'key-unbound-1', baseUrl, maxRetries: 0 });
    const job = await client.articles.generate('ada-lovelace');
    expect(job).toMatchObject({ profile_id: 'ada-lovelace' });
    expect(receivers).toEqual([undefined]);
  });
});
