// `defaultHeaders` (client), `headers` (per call) and `fetchOptions` (both), over both of the
// SDK's ways of sending: they reach the server, a call's own win over the client's, and none
// of them can replace what the SDK sets itself (the key, the idempotency key, the body, the
// method, the signal, the redirect rule).
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { JOB, reply } from '@profile-articles/test-utils/scripted-server';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProfileArticles } from '../src/node.js';
import { TRANSPORTS, useScriptedServers } from './scripted-client.js';

const BALANCE = { credits: 5, pricing: {} };

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const { setup } = useScriptedServers(options);

  it('sends defaultHeaders on every request and a call’s headers on its own, the call’s winning', async () => {
    const { server, client } = await setup([reply(200, BALANCE)], {
      defaultHeaders: { 'X-Team': 'billing', 'x-trace': 'client' },
    });
    await client.credits.balance();
    await client.credits.balance({ headers: { 'X-Trace': 'call-1', 'x-extra': 'yes' } });
    const [first, second] = server.received;
    expect(first?.headers).toMatchObject({ 'x-team': 'billing', 'x-trace': 'client' });
    expect(first?.headers['x-extra']).toBeUndefined();
    expect(second?.headers).toMatchObject({ 'x-team': 'billing', 'x-trace': 'call-1', 'x-extra': 'yes' });
    // Still the SDK's own, next to them.
    expect(second?.headers.authorization).toBe('Bearer sk-secret');
  });

  it('keeps its own headers on a generate with extra headers, the same key on every attempt', async () => {
    const { server, client } = await setup([reply(500, { detail: 'boom' }), reply(202, JOB)], {
      defaultHeaders: { 'x-team': 'billing' },
      maxRetries: 1,
    });
    await client.articles.generate('ada-lovelace', { headers: { 'x-call': '1' } });
    const [first, second] = server.received;
    expect(first?.headers['content-type']).toBe('application/json');
    expect(first?.headers['idempotency-key']).toBeTruthy();
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(second?.headers).toMatchObject({ 'x-team': 'billing', 'x-call': '1' });
    expect(JSON.parse(second?.body ?? '')).toEqual({ profile_id: 'ada-lovelace' });
  });

  it('refuses, in any case, a header the SDK sets itself: at construction and per call, before sending', async () => {
    for (const name of ['Authorization', 'IDEMPOTENCY-KEY', 'content-type']) {
      expect(
        () =>
          new ProfileArticles({
            apiKey: 'sk-any-key',
            baseUrl: 'http://x.test',
            defaultHeaders: { [name]: 'v' },
          }),
      ).toThrow(InvalidArgumentError);
    }
    const { server, client } = await setup([reply(200, BALANCE)]);
    for (const name of ['authorization', 'Idempotency-Key', 'Content-Type']) {
      const error = await rejectionOf(
        client.credits.balance({ headers: { [name]: 'x' } }),
        InvalidArgumentError,
      );
      expect(error.message).toContain(name.toLowerCase());
      expect(error.message).not.toContain('sk-secret');
    }
    // A value no HTTP header can carry is refused the same way, without echoing it.
    const broken = await rejectionOf(
      client.credits.balance({ headers: { 'x-note': 'line\r\nbreak' } }),
      InvalidArgumentError,
    );
    expect(broken.message).not.toContain('line');
    expect(server.received).toHaveLength(0);
  });

  it('passes fetchOptions to fetch as RequestInit fields, the call’s over the client’s', async () => {
    const { server, client } = await setup([reply(200, BALANCE)], {
      fetchOptions: { cache: 'no-store', referrer: 'http://client.example/' },
    });
    await client.credits.balance();
    await client.credits.balance({ fetchOptions: { referrer: 'http://call.example/' } });
    const [first, second] = server.received;
    // What fetch makes of them: `cache: 'no-store'` asks caches along the way not to answer.
    expect(first?.headers['cache-control']).toBe('no-cache');
    expect(first?.headers.referer).toBe('http://client.example/');
    expect(second?.headers['cache-control']).toBe('no-cache');
    expect(second?.headers.referer).toBe('http://call.example/');
    expect(second?.headers.authorization).toBe('Bearer sk-secret');
  });

  it('refuses fetchOptions that would set the method, body, headers, signal or redirect', async () => {
    for (const field of ['method', 'body', 'headers', 'signal', 'redirect']) {
      const fetchOptions = { [field]: field === 'signal' ? new AbortController().signal : 'x' } as object;
      expect(
        () => new ProfileArticles({ apiKey: 'sk-any-key', baseUrl: 'http://x.test', fetchOptions }),
      ).toThrow(InvalidArgumentError);
    }
    const { server, client } = await setup([reply(200, BALANCE)]);
    const error = await rejectionOf(
      client.credits.balance({ fetchOptions: { redirect: 'follow' } as object }),
      InvalidArgumentError,
    );
    expect(error.message).toContain('redirect');
    expect(server.received).toHaveLength(0);
  });
});

describe('fetchOptions with a fetch of your own', () => {
  const { setup } = useScriptedServers();

  it('reach that fetch as its init, fields the Request has no place for included', async () => {
    const inits: Array<RequestInit | undefined> = [];
    const ownFetch: typeof fetch = (input, init) => {
      inits.push(init);
      return globalThis.fetch(input, init);
    };
    const { client } = await setup([reply(200, BALANCE)], {
      fetch: ownFetch,
      fetchOptions: { keepalive: true, priority: 'high' } as RequestInit,
    });
    await client.credits.balance();
    expect(inits).toHaveLength(1);
    expect(inits[0]).toMatchObject({ keepalive: true, priority: 'high' });
  });
});

describe('fetchOptions and proxy', () => {
  const { setup } = useScriptedServers();

  it('are refused together: a proxy client sends over node:http, which takes no RequestInit fields', async () => {
    // The proxy is never contacted: both refusals come before anything is sent.
    const proxy = 'http://127.0.0.1:9';
    expect(
      () =>
        new ProfileArticles({
          apiKey: 'sk-secret-key',
          baseUrl: 'http://x.test',
          proxy,
          fetchOptions: { keepalive: true },
        }),
    ).toThrow(InvalidArgumentError);
    const { server, client } = await setup([reply(200, BALANCE)], { proxy });
    const error = await rejectionOf(
      client.credits.balance({ fetchOptions: { keepalive: true } }),
      InvalidArgumentError,
    );
    expect(error.message).toMatch(/proxy/);
    expect(server.received).toHaveLength(0);
  });
});
