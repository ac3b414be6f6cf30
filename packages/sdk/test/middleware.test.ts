// The `middleware` option: functions around every attempt, in order. Against the real mock over
// HTTP where it can tell (answers, retries the fault rules cause, the journal), and a scripted
// server that records every header it received where the test needs to read them.
import { useMockServer } from '@profile-articles/test-utils/mock-suite';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { hang, reply, reset } from '@profile-articles/test-utils/scripted-server';
import { describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  ConnectionError,
  InvalidArgumentError,
  type Middleware,
  ProfileArticles,
  TimeoutError,
} from '../src/node.js';
import { TRANSPORTS, useScriptedServers } from './scripted-client.js';

const KEY = 'key-middleware-1';
const mock = useMockServer({
  accounts: [{ id: 'mw', apiKeys: [KEY], credits: 1_000, pricing: { requests_per_minute: 100_000 } }],
});
const BALANCE = { credits: 7, pricing: {} };

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const client = (extra: ClientOptions = {}) =>
    new ProfileArticles({ apiKey: KEY, baseUrl: mock.url, ...options, ...extra });
  const { setup } = useScriptedServers(options);

  it('adds a header, around every attempt, in the order given (the first outermost)', async () => {
    const order: string[] = [];
    const tag =
      (name: string): Middleware =>
      async (request, next) => {
        order.push(`${name} in`);
        const headers = { ...(request.init.headers as Record<string, string>), [`x-${name}`]: 'yes' };
        const response = await next({ ...request, init: { ...request.init, headers } });
        order.push(`${name} out ${response.status}`);
        return response;
      };
    const { server, client: sdk } = await setup([reply(503, { detail: 'busy' }), reply(200, BALANCE)], {
      middleware: [tag('a'), tag('b')],
    });
    await expect(sdk.credits.balance()).resolves.toMatchObject({ credits: 7 });
    expect(order).toEqual([
      'a in',
      'b in',
      'b out 503',
      'a out 503',
      'a in',
      'b in',
      'b out 200',
      'a out 200',
    ]);
    expect(server.received).toHaveLength(2);
    for (const received of server.received) {
      expect(received.headers).toMatchObject({
        'x-a': 'yes',
        'x-b': 'yes',
        authorization: 'Bearer sk-secret',
      });
    }
  });

  it('takes headers as a Headers object too, and may time or observe an attempt against the real mock', async () => {
    const seen: Array<[string, number]> = [];
    const sdk = client({
      middleware: [
        async ({ url, init }, next) => {
          const headers = new Headers(init.headers);
          headers.set('x-tenant', 'acme');
          const response = await next({ url, init: { ...init, headers } });
          seen.push([init.method ?? '', response.status]);
          return response;
        },
      ],
    });
    await sdk.articles.generate('mw-ada');
    await expect(sdk.credits.balance()).resolves.toMatchObject({ credits: 900 });
    expect(seen).toEqual([
      ['POST', 202],
      ['GET', 200],
    ]);
  });

  it('may answer itself: nothing is sent, and the answer is parsed and checked as any other', async () => {
    const { server, client: sdk } = await setup([reply(200, BALANCE)], {
      middleware: [async () => Response.json({ credits: 42, pricing: {} })],
    });
    await expect(sdk.credits.balance()).resolves.toMatchObject({ credits: 42 });
    expect(server.received).toEqual([]);
  });

  it('a change to authorization, idempotency-key, content-type, the URL or the body: InvalidArgumentError, nothing sent', async () => {
    const changes: Array<[string, Middleware]> = [
      [
        'authorization',
        (r, next) => next({ ...r, init: { ...r.init, headers: { ...h(r), authorization: 'Bearer other' } } }),
      ],
      [
        'idempotency-key',
        (r, next) => next({ ...r, init: { ...r.init, headers: { ...h(r), 'idempotency-key': 'k2' } } }),
      ],
      [
        'content-type',
        (r, next) => next({ ...r, init: { ...r.init, headers: { ...h(r), 'content-type': 'text/plain' } } }),
      ],
      [
        'authorization',
        (r, next) => {
          // Removed in place, on the very object the SDK handed over.
          delete (r.init.headers as Record<string, string>).authorization;
          return next(r);
        },
      ],
      ['URL', (r, next) => next({ ...r, url: 'https://elsewhere.example/api/v1/articles' })],
      ['body', (r, next) => next({ ...r, init: { ...r.init, body: '{"profile_id":"other"}' } })],
    ];
    for (const [what, change] of changes) {
      const { server, client: sdk } = await setup([reply(202, {})], { middleware: [change] });
      const error = await rejectionOf(sdk.articles.generate('ada'), InvalidArgumentError);
      expect(error.message, what).toContain(
        what === 'URL' || what === 'body' ? 'URL, method or body' : `cannot set ${what}`,
      );
      expect(server.received, what).toEqual([]);
      // Nothing sent: nothing counted against the client.
      expect(sdk.spent).toBe(0);
    }
  });

  it('what it throws is the call’s error, not retried; a failure of the send through it is a ConnectionError as ever', async () => {
    const own = new Error('the cache is down');
    const { server, client: sdk } = await setup([reply(200, BALANCE)], {
      middleware: [
        async () => {
          throw own;
        },
      ],
    });
    expect(await rejectionOf(sdk.credits.balance())).toBe(own);
    expect(server.received).toEqual([]);
    const passing = await setup([reset, reply(200, BALANCE)], { middleware: [(r, next) => next(r)] });
    await expect(passing.client.credits.balance()).resolves.toMatchObject({ credits: 7 });
    expect(passing.server.received).toHaveLength(2);
    const failing = await setup([reset], { maxRetries: 0, middleware: [(r, next) => next(r)] });
    await rejectionOf(failing.client.credits.balance(), ConnectionError);
  });

  it('runs within the attempt’s time limit: one that never answers times out as a fetch would', async () => {
    const { client: sdk } = await setup([hang], {
      timeoutMs: 200,
      maxRetries: 0,
      middleware: [(r, next) => next(r)],
    });
    await rejectionOf(sdk.credits.balance(), TimeoutError);
    const stuck = await setup([], {
      timeoutMs: 200,
      maxRetries: 0,
      middleware: [() => new Promise<Response>(() => {})],
    });
    await rejectionOf(stuck.client.credits.balance(), TimeoutError);
  });

  it('must be an array of functions', () => {
    expect(() => client({ middleware: 'x' as never })).toThrow(InvalidArgumentError);
    expect(() => client({ middleware: [1] as never })).toThrow(/middleware must be an array of functions/);
  });
});

const h = (request: { init: RequestInit }) => request.init.headers as Record<string, string>;
