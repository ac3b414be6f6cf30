// The `proxy` option through a real proxy started here (the `proxy` package), to the real
// mock: http as absolute-URI requests, https by CONNECT to a TLS front whose certificate the
// client trusts by NODE_EXTRA_CA_CERTS, in a process of its own (Node reads it at start-up).
// Then the proxies that fail: one that drops the connection, one that is not there, one that
// refuses the tunnel. And the option's checks, on Node and elsewhere.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect, promisify } from 'node:util';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { watchServerRequests } from '@profile-articles/test-utils/http-requests';
import { keyLeaks } from '@profile-articles/test-utils/key-echoes';
import { droppingProxy, refusingProxy, startProxy } from '@profile-articles/test-utils/proxy-server';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { type TlsFront, tlsFront } from '@profile-articles/test-utils/tls-front';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProfileArticles as NeutralClient } from '../src/index.js';
import { ConnectionError, InvalidArgumentError, ProfileArticles } from '../src/node.js';

const KEY = 'proxy-key';
const sdkSource = fileURLToPath(new URL('../src/node.ts', import.meta.url));
let mock: MockServer;
let tls: TlsFront;
let dir: string;
const closing: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    config: { accounts: [{ id: 'a', apiKeys: [KEY], credits: 500 }] },
  });
  tls = await tlsFront(mock.port);
  dir = mkdtempSync(join(tmpdir(), 'sdk-proxy-'));
  writeFileSync(join(dir, 'cert.pem'), tls.cert);
});
afterAll(async () => {
  await Promise.all([mock.close(), tls.close()]);
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => mock.service.reset());
afterEach(async () => {
  await Promise.all(closing.splice(0).map((server) => server.close()));
});

async function proxyServer() {
  const proxy = await startProxy();
  closing.push(proxy);
  return proxy;
}

async function dropper() {
  const proxy = await droppingProxy();
  closing.push(proxy);
  return proxy;
}

/**
 * Runs the SDK (from source, through tsx) in a process of its own that trusts the TLS front's
 * certificate, as a user behind a TLS-inspecting proxy trusts its CA: the balance it read.
 */
async function balanceInChild(baseUrl: string, proxy: string): Promise<{ credits: number }> {
  const script = join(dir, 'balance.mts');
  writeFileSync(
    script,
    `import { ProfileArticles } from ${JSON.stringify(sdkSource)};
const client = new ProfileArticles({ apiKey: ${JSON.stringify(KEY)}, baseUrl: process.argv[2], proxy: process.argv[3] });
process.stdout.write(JSON.stringify(await client.credits.balance()));`,
  );
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', script, baseUrl, proxy],
    {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') },
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    },
  );
  return JSON.parse(stdout);
}

describe('through a working proxy', () => {
  it('http: each request goes to the proxy as an absolute URI, and the mock answers through it', async () => {
    const proxy = await proxyServer();
    const vias: Array<string | undefined> = [];
    const stop = watchServerRequests(mock.port, ({ request }) => vias.push(request.headers.via as string));
    try {
      const client = new ProfileArticles({ apiKey: KEY, baseUrl: mock.url, proxy: proxy.url });
      expect((await client.credits.balance()).credits).toBe(500);
      const job = await client.articles.generate('ada-lovelace');
      expect(job).toMatchObject({ status: 'queued' });
    } finally {
      stop();
    }
    expect(proxy.requests).toEqual([`GET ${mock.url}/api/v1/credits`, `POST ${mock.url}/api/v1/articles`]);
    expect(proxy.connects).toEqual([]);
    // The proxy put its Via on what it relayed: the mock heard it from the proxy.
    expect(vias).toHaveLength(2);
    for (const via of vias) expect(via).toMatch(/proxy\//);
  });

  it('https: a CONNECT tunnel, TLS to the server inside it (the client checks the server’s certificate)', async () => {
    const proxy = await proxyServer();
    // Trusting the certificate, in a process that has it: the balance comes through the tunnel.
    expect(await balanceInChild(tls.url, proxy.url)).toMatchObject({ credits: 500 });
    expect(proxy.connects).toEqual([`127.0.0.1:${tls.port}`]);
    expect(proxy.requests).toEqual([]);
    // Not trusting it, here: the proxy relays bytes only, so the client itself refuses the server.
    const untrusting = new ProfileArticles({
      apiKey: KEY,
      baseUrl: tls.url,
      proxy: proxy.url,
      maxRetries: 0,
    });
    const error = await rejectionOf(untrusting.credits.balance(), ConnectionError);
    expect(error.message).toMatch(/SELF_SIGNED/);
    expect(error.message).not.toMatch(/proxy/);
    expect(proxy.connects).toHaveLength(2);
  });

  it('a URL object works as well as a string, and keeps its credentials out of the client’s JSON', async () => {
    const proxy = await proxyServer();
    const url = new URL(proxy.url);
    url.username = 'me';
    url.password = 'proxy-PASSWORD';
    const client = new ProfileArticles({ apiKey: KEY, baseUrl: mock.url, proxy: url });
    expect((await client.credits.balance()).credits).toBe(500);
    expect(proxy.requests).toHaveLength(1);
    expect(JSON.stringify(client)).not.toContain('PASSWORD');
  });
});

describe('a proxy that fails', () => {
  it('dropping the connection, for http: a ConnectionError that says the proxy dropped it', async () => {
    const proxy = await dropper();
    const client = new ProfileArticles({ apiKey: KEY, baseUrl: mock.url, proxy: proxy.url, maxRetries: 0 });
    const error = await rejectionOf(client.credits.balance(), ConnectionError);
    expect(error.message).toBe(
      `Could not reach ${mock.url} (ECONNRESET): the proxy ${proxy.url} dropped the connection before answering`,
    );
    // The request went out whole to the proxy: a checkout may have been relayed, so it is not sent again.
    await rejectionOf(
      new ProfileArticles({
        apiKey: KEY,
        baseUrl: mock.url,
        proxy: proxy.url,
        maxRetries: 3,
      }).credits.checkout(10),
      ConnectionError,
    );
    expect(proxy.dropped()).toBe(2);
  });

  it('dropping the connection, for https: nothing reached the server, so even a checkout is tried again', async () => {
    const proxy = await dropper();
    const client = new ProfileArticles({ apiKey: KEY, baseUrl: tls.url, proxy: proxy.url, maxRetries: 1 });
    const error = await rejectionOf(client.credits.checkout(10), ConnectionError);
    expect(error.message).toBe(
      `Could not reach ${tls.url} (ERR_PROXY_TUNNEL): the proxy ${proxy.url} dropped the connection before opening the tunnel; nothing reached the server`,
    );
    expect(error.attempts).toBe(2);
    expect(proxy.dropped()).toBe(2);
  });

  it('not there: the proxy could not be reached, and the credentials in its URL stay out of the message', async () => {
    const proxy = await dropper();
    await proxy.close();
    const url = new URL(proxy.url);
    url.username = 'me';
    url.password = 'proxy-PASSWORD';
    for (const baseUrl of [mock.url, tls.url]) {
      const client = new ProfileArticles({ apiKey: KEY, baseUrl, proxy: url.href, maxRetries: 0 });
      const error = await rejectionOf(client.credits.balance(), ConnectionError);
      expect(error.message).toBe(
        `Could not reach ${baseUrl} (ECONNREFUSED): the proxy ${proxy.url} could not be reached (ECONNREFUSED); nothing reached the server`,
      );
    }
  });

  it('refusing the tunnel: the proxy’s answer is not taken for the API’s', async () => {
    // The proxy asks for credentials it will never accept: 407 to the CONNECT.
    const proxy = await startProxy({ refuse: true });
    closing.push(proxy);
    const client = new ProfileArticles({ apiKey: KEY, baseUrl: tls.url, proxy: proxy.url, maxRetries: 0 });
    const error = await rejectionOf(client.credits.balance(), ConnectionError);
    expect(error.message).toBe(
      `Could not reach ${tls.url} (ERR_PROXY_TUNNEL): the proxy ${proxy.url} refused the tunnel: 407 Proxy Authentication Required; nothing reached the server`,
    );
    expect(proxy.connects).toEqual([`127.0.0.1:${tls.port}`]);
  });

  // An attack trial: a proxy's reason phrase is its own text, and it may hold the client's key
  // (a proxy that saw it on plain http, or a careless one echoing a header): redacted, in every
  // spelling and wherever it falls, before the phrase is cut short.
  it.each([
    ['the key', KEY],
    ['the key split by a zero-width space', `${KEY.slice(0, 4)}\u200b${KEY.slice(4)}`],
    ['the key URL-encoded in lower case', [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
    ['the key across the 80th character', `${'x'.repeat(60)} ${KEY}`],
  ])('a refusal whose reason phrase holds %s: redacted', async (_name, words) => {
    const proxy = await refusingProxy(`403 Forbidden for ${words}`);
    closing.push(proxy);
    const client = new ProfileArticles({ apiKey: KEY, baseUrl: tls.url, proxy: proxy.url, maxRetries: 0 });
    const error = await rejectionOf(client.credits.balance(), ConnectionError);
    expect(error.message).toMatch(
      new RegExp(
        `^Could not reach .* \\(ERR_PROXY_TUNNEL\\): the proxy ${proxy.url} refused the tunnel: 403 Forbidden for `,
      ),
    );
    // Cut short at 80 characters after it is redacted: no part of the key is left.
    expect(error.message).toMatch(/\[reda/);
    const everything = `${error.message}\n${inspect(error, { depth: 9 })}\n${JSON.stringify(error)}`;
    expect(keyLeaks(everything, KEY)).toEqual([]);
    expect(everything).not.toContain(KEY.slice(0, 8));
  });
});

describe('the option', () => {
  it('refuses what cannot be a proxy, never echoing a password', () => {
    const make = (proxy: string, more = {}) =>
      new ProfileArticles({ apiKey: KEY, baseUrl: 'https://api.example.com', proxy, ...more });
    expect(() => make('not a url')).toThrow(
      new InvalidArgumentError('proxy is not a valid URL: "not a url"'),
    );
    expect(() => make('http://me:s3cret@')).toThrow(new InvalidArgumentError('proxy is not a valid URL'));
    expect(() => make('socks5://127.0.0.1:1080')).toThrow(
      new InvalidArgumentError('proxy must be an http:// or https:// URL, got "socks5:"'),
    );
    expect(() => make('http://127.0.0.1:3128', { fetch: globalThis.fetch })).toThrow(InvalidArgumentError);
  });

  it('elsewhere than Node, names the runtime’s own proxy setting', () => {
    const make = () =>
      new NeutralClient({ apiKey: KEY, baseUrl: 'https://api.example.com', proxy: 'http://127.0.0.1:3128' });
    try {
      vi.stubGlobal('Bun', { version: '1.3.0' });
      expect(make).toThrow(
        new InvalidArgumentError(
          "proxy works on Node only: Bun's fetch goes through the proxy that HTTPS_PROXY or HTTP_PROXY names",
        ),
      );
      vi.unstubAllGlobals();
      vi.stubGlobal('Deno', { version: { deno: '2.5.0' } });
      expect(make).toThrow(/^proxy works on Node only: Deno's fetch goes through the proxy that HTTPS_PROXY/);
      vi.unstubAllGlobals();
      vi.stubGlobal('process', {});
      expect(make).toThrow(/^proxy works on Node only: pass a fetch that goes through your proxy$/);
    } finally {
      vi.unstubAllGlobals();
    }
    // Node's own neutral build too: only the Node entry carries a proxy.
    expect(make).toThrow(/^proxy works on Node only/);
  });
});
