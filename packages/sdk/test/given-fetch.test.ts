// A client given a `fetch` (a test's stub, a tracing wrapper, Bun's or Deno's): the SDK hands it
// one Request per attempt and bounds the wait for headers itself, so even a fetch that ignores
// its signal cannot hold a call past `timeoutMs`, and the request's signal tells a fetch that
// does listen when to let go.
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { describe, expect, it } from 'vitest';
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

describe('a given fetch', () => {
  it('gets one Request with the method, headers and JSON body, and fetchOptions as its init', async () => {
    const calls: Array<{ request: Request; init: RequestInit | undefined; body: string }> = [];
    const sdk = clientWith(async (input, init) => {
      const request = input as Request;
      calls.push({ request, init, body: await request.text() });
      return new Response(JSON.stringify({ session_id: 's', url: 'https://pay.test/s' }), { status: 200 });
    });
    await sdk.credits.checkout(100, { fetchOptions: { cache: 'no-store' } });
    await sdk.credits.balance().catch(() => {});
    const [checkout, balance] = calls;
    expect(checkout?.request).toBeInstanceOf(Request);
    expect(checkout?.request.method).toBe('POST');
    expect(checkout?.request.url).toBe('https://api.test/api/v1/credits/checkout');
    expect(checkout?.request.redirect).toBe('manual');
    expect(checkout?.request.headers.get('content-type')).toBe('application/json');
    expect(checkout?.request.headers.get('authorization')).toBe('Bearer sk-given');
    expect(checkout?.body).toBe('{"credits":100}');
    expect(checkout?.init).toEqual({ cache: 'no-store' });
    expect(balance?.request.method).toBe('GET');
    expect(balance?.request.headers.has('content-type')).toBe(false);
    expect(balance?.body).toBe('');
    expect(balance?.init).toBeUndefined();
  });

  it('ends at timeoutMs with TimeoutError even when the fetch ignores its signal, and aborts that signal', async () => {
    let signal: AbortSignal | undefined;
    const sdk = clientWith(
      (input) => {
        signal = (input as Request).signal;
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

  it("passes the caller's abort to the request's signal, and rejects with the caller's reason", async () => {
    let signal: AbortSignal | undefined;
    const controller = new AbortController();
    const sdk = clientWith((input) => {
      signal = (input as Request).signal;
      setTimeout(() => controller.abort(new Error('caller stopped')), 10);
      return new Promise<Response>(() => {});
    });
    const error = await rejectionOf(sdk.credits.balance({ signal: controller.signal }));
    expect(error.message).toBe('caller stopped');
    expect(signal?.aborted).toBe(true);
  });

  it('answers as before once headers came: the time limit no longer aborts the request', async () => {
    let signal: AbortSignal | undefined;
    const sdk = clientWith(
      async (input) => {
        signal = (input as Request).signal;
        return answer();
      },
      { timeoutMs: 40 },
    );
    await expect(sdk.credits.balance()).resolves.toMatchObject({ credits: 7 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(signal?.aborted).toBe(false);
  });
});
