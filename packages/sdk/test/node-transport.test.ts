// The Node entry's default transport (node:http, src/node-fetch.ts) against real servers: that
// it is the default, that a `fetch` still wins, and what the SDK relies on from fetch, checked
// over both transports where fetch does the same (hostile-server, faults and secrets run their
// suites over both too).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, globalAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { clientRequestsDuring } from '@profile-articles/test-utils/http-requests';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { JOB } from '@profile-articles/test-utils/scripted-server';
import { startMock } from '@profile-articles/test-utils/start-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectionError, ProfileArticles, TimeoutError } from '../src/node.js';
import { TRANSPORTS } from './scripted-client.js';

const BALANCE = {
  credits: 7,
  pricing: {
    read_credits: 1,
    generation_credits: 100,
    credit_price_cents: 5,
    queued_timeout_minutes: 30,
    requests_per_minute: 60,
    min_purchase_credits: 10,
    max_purchase_credits: 100000,
  },
};

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A server per test, over https when given a key and certificate: its URL, the requests it
 * read (with their bodies) and how many connections it accepted.
 */
async function serve(handler: Handler, tls?: { key: Buffer; cert: Buffer }) {
  const received: Array<{
    method?: string;
    url?: string;
    headers: IncomingMessage['headers'];
    body: string;
  }> = [];
  let connections = 0;
  const onRequest: Handler = (req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res);
    });
  };
  const server: Server = tls ? createHttpsServer(tls, onRequest) : createServer(onRequest);
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const started = {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(started);
  return started;
}
const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('the default transport on Node', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({
      port: 0,
      config: { accounts: [{ id: 'acme', apiKeys: ['key-0001'], credits: 1000 }] },
    });
  });
  afterAll(() => mock.close());
  const client = (options = {}) => new ProfileArticles({ apiKey: 'key-0001', baseUrl: mock.url, ...options });

  it('is node:http, against the real mock over HTTP', async () => {
    const sdk = client();
    expect(await clientRequestsDuring(mock.url, () => sdk.credits.balance())).toBe(1);
    const job = await sdk.articles.generate('ada-lovelace');
    expect(job.credits_charged).toBe(100);
  });

  it('gives way to a fetch in the options', async () => {
    const urls: string[] = [];
    const sdk = client({
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        urls.push(input instanceof Request ? input.url : String(input));
        return fetch(input, init);
      },
    });
    expect(await clientRequestsDuring(mock.url, () => sdk.credits.balance())).toBe(0);
    expect(urls).toEqual([`${mock.url}/api/v1/credits`]);
  });

  it('gives way to a global fetch replaced after the SDK loaded (msw, a stub), as before', async () => {
    const original = globalThis.fetch;
    let calls = 0;
    globalThis.fetch = (input, init) => {
      calls++;
      return original(input, init);
    };
    try {
      const sdk = client();
      expect(await clientRequestsDuring(mock.url, () => sdk.credits.balance())).toBe(0);
      expect(calls).toBe(1);
    } finally {
      globalThis.fetch = original;
    }
  });

  it('is still seen by msw when msw patched fetch before the SDK loaded (it patches node:http too)', async () => {
    const mocked = await startMock(
      'msw',
      { accounts: [{ id: 'acme', apiKeys: ['key-0001'], credits: 1000 }] },
      { mswBaseUrl: 'http://sdk-msw-first.test', onUnhandledRequest: 'error' },
    );
    try {
      vi.resetModules();
      const loadedAfterMsw = await import('../src/node.js');
      const sdk = new loadedAfterMsw.ProfileArticles({ apiKey: 'key-0001', baseUrl: mocked.baseUrl });
      let credits = 0;
      expect(
        await clientRequestsDuring(
          mocked.baseUrl,
          async () => (credits = (await sdk.credits.balance()).credits),
        ),
      ).toBe(1);
      expect(credits).toBe(1000);
    } finally {
      await mocked.close();
    }
  });

  // On Node the attempt hands its URL and plain init straight to node:http: no Request is made
  // per call, let alone cloned (an HTTP library under the SDK once cloned every Request for
  // retries of its own, which cost every call another Request and AbortSignal). A given fetch
  // gets the URL and init as openai-node's does.
  it('makes no Request over node:http, and a given fetch gets the URL and a plain init', async () => {
    const made = vi.spyOn(globalThis, 'Request');
    const given = vi.fn(globalThis.fetch);
    try {
      await client().credits.balance();
      await client().articles.generate('grace-hopper');
      expect(made).not.toHaveBeenCalled();
      await client({ fetch: given }).credits.balance();
      expect(given).toHaveBeenCalledOnce();
      expect(typeof given.mock.calls[0]?.[0]).toBe('string');
    } finally {
      made.mockRestore();
    }
  });

  it('keeps one connection alive across sequential calls', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(BALANCE));
    });
    const sdk = new ProfileArticles({ apiKey: 'test-key', baseUrl: server.url });
    for (let i = 0; i < 5; i++) await sdk.credits.balance();
    expect(server.received).toHaveLength(5);
    expect(server.connections()).toBe(1);
  });

  it('sends what fetch sends: method, path, body and headers', async () => {
    const server = await serve((req, res) => {
      const body = req.method === 'POST' ? JOB : BALANCE;
      res.writeHead(req.method === 'POST' ? 202 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    for (const { options } of TRANSPORTS) {
      const sdk = new ProfileArticles({ apiKey: 'test-key', baseUrl: server.url, ...options });
      await sdk.articles.generate('ada-lovelace', { idempotencyKey: 'same-key' });
      await sdk.credits.balance();
    }
    const [postOverHttp, getOverHttp, postOverFetch, getOverFetch] = server.received;
    expect(postOverHttp).toEqual(postOverFetch);
    expect(getOverHttp).toEqual(getOverFetch);
    expect(postOverHttp?.headers['content-length']).toBe(String(postOverHttp?.body.length));
  });
});

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  describe('a compressed answer is decoded', () => {
    const bytes = Buffer.from(JSON.stringify(BALANCE));
    it.each([
      ['gzip', gzipSync(bytes)],
      ['x-gzip', gzipSync(bytes)],
      ['deflate', deflateSync(bytes)],
      ['deflate', deflateRawSync(bytes)],
      ['br', brotliCompressSync(bytes)],
      ['gzip, br', brotliCompressSync(gzipSync(bytes))],
    ])('Content-Encoding: %s', async (encoding, body) => {
      const server = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding }).end(body);
      });
      const sdk = new ProfileArticles({ apiKey: 'test-key', baseUrl: server.url, ...options });
      expect(await sdk.credits.balance()).toEqual(BALANCE);
      expect(server.received[0]?.headers['accept-encoding']).toMatch(/gzip, deflate/);
    });
  });

  // An attacker's finding: 2,000 gzip layers cost one balance() 6.7 s of CPU over node:http.
  // undici stops at 5 codings; past that the attempt fails as an undecodable body does,
  // naming the limit, and nothing is decoded.
  describe("more Content-Encoding layers than 5 (undici's limit)", () => {
    const bytes = Buffer.from(JSON.stringify(BALANCE));
    const layered = (count: number) => {
      let body = bytes;
      for (let i = 0; i < count; i++) body = gzipSync(body);
      return body;
    };
    it.each([5, 6, 200])('%i gzip layers', async (count) => {
      const body = layered(count);
      const server = await serve((_req, res) => {
        res
          .writeHead(200, {
            'content-type': 'application/json',
            'content-encoding': Array(count).fill('gzip').join(', '),
          })
          .end(body);
      });
      const sdk = new ProfileArticles({ apiKey: 'test-key', baseUrl: server.url, maxRetries: 0, ...options });
      if (count <= 5) {
        expect(await sdk.credits.balance()).toEqual(BALANCE);
        return;
      }
      const error = await rejectionOf(sdk.credits.balance());
      expect(error).toBeInstanceOf(ConnectionError);
      // Each transport's own words (undici's, or the SDK's over node:http), each naming the limit.
      expect((error as Error).message).toMatch(
        new RegExp(
          `: (the answer's Content-Encoding lists ${count} codings, more than the 5 the SDK decodes|too many content-encodings in response: ${count}, maximum allowed is 5)$`,
        ),
      );
    });

    it('a body that is not what its one coding says fails the same way', async () => {
      const server = await serve((_req, res) => {
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end('{"not":"gzip"}');
      });
      const sdk = new ProfileArticles({ apiKey: 'test-key', baseUrl: server.url, maxRetries: 0, ...options });
      const error = await rejectionOf(sdk.credits.balance());
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toMatch(/Z_DATA_ERROR/);
    });
  });

  /** A server that never answers. */
  const silent = () => {};
  /** Headers at once, then a byte every 20 ms. */
  const trickling = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    const timer = setInterval(() => res.write(' '), 20);
    res.on('close', () => clearInterval(timer));
  };
  describe.each([
    ['while waiting for headers', silent],
    ['while the body trickles', trickling],
  ])('an abort or a time limit %s closes the connection', (_when, answer) => {
    /** Serves `answer`, and tells when the client closed the connection. */
    async function start() {
      let closed!: () => void;
      const socketClosed = new Promise<void>((resolve) => (closed = resolve));
      const server = await serve((req, res) => {
        req.socket.once('close', closed);
        answer(req, res);
      });
      return { server, socketClosed };
    }

    it('by the caller’s signal: rejects with its reason', async () => {
      const { server, socketClosed } = await start();
      const sdk = new ProfileArticles({ apiKey: 'test-key', baseUrl: server.url, ...options });
      const controller = new AbortController();
      const reason = new Error('caller stopped');
      const call = sdk.credits.balance({ signal: controller.signal });
      while (server.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      // Long enough for a trickling body to have begun.
      setTimeout(() => controller.abort(reason), 150);
      await expect(call).rejects.toBe(reason);
      await socketClosed;
    });

    it('by timeoutMs: a TimeoutError, at the limit', async () => {
      const { server, socketClosed } = await start();
      const sdk = new ProfileArticles({
        apiKey: 'test-key',
        baseUrl: server.url,
        timeoutMs: 300,
        maxRetries: 0,
        ...options,
      });
      const started = performance.now();
      await rejectionOf(sdk.credits.balance(), TimeoutError);
      const tookMs = performance.now() - started;
      // Timers may fire a millisecond early. The server never answers, so without the limit the
      // call would not end at all: the upper bound only has to be finite, and far from 300 ms
      // for a loaded CI machine.
      expect(tookMs).toBeGreaterThanOrEqual(295);
      expect(tookMs).toBeLessThan(10_000);
      await socketClosed;
    });
  });

  describe('https', () => {
    let dir: string;
    let tls: { key: Buffer; cert: Buffer } | undefined;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'sdk-tls-'));
      try {
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'rsa:2048',
            '-nodes',
            '-days',
            '1',
            '-subj',
            '/CN=127.0.0.1',
            '-addext',
            'subjectAltName=IP:127.0.0.1',
            '-keyout',
            join(dir, 'key.pem'),
            '-out',
            join(dir, 'cert.pem'),
          ],
          { stdio: 'ignore' },
        );
        tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
      } catch {
        tls = undefined; // no openssl: the https cases are skipped below
      }
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const httpsServer = (keys: { key: Buffer; cert: Buffer }) =>
      serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(BALANCE));
      }, keys);

    it('an untrusted certificate is a ConnectionError naming the TLS error, never retried into success', async (ctx) => {
      if (!tls) return ctx.skip();
      const server = await httpsServer(tls);
      expect(server.url).toMatch(/^https:/);
      const sdk = new ProfileArticles({ apiKey: 'test-key', baseUrl: server.url, maxRetries: 0, ...options });
      const error = await rejectionOf(sdk.credits.balance(), ConnectionError);
      expect(error.message).toMatch(/SELF_SIGNED/);
      expect(server.received).toHaveLength(0);
    });

    it.runIf(options.fetch === undefined)(
      'a trusted one answers (node:http: what https.globalAgent trusts)',
      async (ctx) => {
        if (!tls) return ctx.skip();
        const server = await httpsServer(tls);
        const before = globalAgent.options.ca;
        globalAgent.options.ca = tls.cert;
        try {
          const sdk = new ProfileArticles({ apiKey: 'test-key', baseUrl: server.url, ...options });
          expect(await sdk.credits.balance()).toEqual(BALANCE);
          expect(server.received).toHaveLength(1);
        } finally {
          globalAgent.options.ca = before;
          globalAgent.destroy();
        }
      },
    );
  });
});
