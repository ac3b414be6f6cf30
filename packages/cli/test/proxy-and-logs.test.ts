// The CLI through an HTTP proxy named by HTTPS_PROXY / HTTP_PROXY (either case), as curl and
// gh read them, NO_PROXY's exemptions and loopback's; its User-Agent; its logger (the SDK's
// warnings once, PROFILE_ARTICLES_LOG's lines). A real proxy started here reaches the mock,
// under a name that is not loopback (`api.proxied.test`, which the proxy maps to 127.0.0.1),
// or at 0.0.0.0, which Linux connects to this machine and no rule counts as loopback.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchServerRequests } from '@profile-articles/test-utils/http-requests';
import { keyLeaks } from '@profile-articles/test-utils/key-echoes';
import {
  droppingProxy,
  refusingProxy,
  type StartedProxy,
  startProxy,
} from '@profile-articles/test-utils/proxy-server';
import { type TlsFront, tlsFront } from '@profile-articles/test-utils/tls-front';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exempt, proxyFromEnv } from '../src/settings/proxy-env.js';
import { CLI_CONFIG, KEYS, onlyJson, transcript, useCliMock } from './helpers.js';

const NAME = 'api.proxied.test';
const h = useCliMock({ ...CLI_CONFIG, allowHosts: [NAME, '0.0.0.0'] });
let proxy: StartedProxy;
let tls: TlsFront;
let dir: string;
const port = () => String(h.server.port);

beforeAll(async () => {
  proxy = await startProxy({ hosts: { [NAME]: '127.0.0.1' } });
  tls = await tlsFront(h.server.port, [NAME]);
  dir = mkdtempSync(join(tmpdir(), 'cli-proxy-'));
  writeFileSync(join(dir, 'cert.pem'), tls.cert);
});
afterAll(async () => {
  await Promise.all([proxy.close(), tls.close()]);
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  proxy.connects.length = 0;
  proxy.requests.length = 0;
});

describe('which proxy, from the environment', () => {
  const env = (vars: Record<string, string>) => vars;

  it('HTTPS_PROXY for https, HTTP_PROXY for http, either case, lower case first', () => {
    const both = env({
      HTTPS_PROXY: 'http://upper:1',
      https_proxy: 'http://lower:2',
      HTTP_PROXY: 'http://plain:3',
    });
    expect(proxyFromEnv('https://api.example.com', both)).toBe('http://lower:2/');
    expect(proxyFromEnv('https://api.example.com', env({ HTTPS_PROXY: 'http://upper:1' }))).toBe(
      'http://upper:1/',
    );
    expect(proxyFromEnv('http://api.example.com', both)).toBe('http://plain:3/');
    // Each scheme its own variable: no HTTPS_PROXY means https goes direct, as with curl and gh.
    expect(proxyFromEnv('https://api.example.com', env({ HTTP_PROXY: 'http://plain:3' }))).toBeUndefined();
    expect(proxyFromEnv('http://api.example.com', env({ HTTPS_PROXY: 'http://upper:1' }))).toBeUndefined();
    // An empty value is unset; a value without a scheme is http, as curl reads it.
    expect(proxyFromEnv('https://api.example.com', env({ https_proxy: '', HTTPS_PROXY: 'p:8' }))).toBe(
      'http://p:8/',
    );
  });

  it('loopback is never proxied', () => {
    const all = env({ HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' });
    for (const url of [
      'http://127.0.0.1:4010',
      'http://127.1.2.3',
      'https://localhost',
      'http://a.localhost',
      'http://[::1]:9',
    ])
      expect(proxyFromEnv(url, all), url).toBeUndefined();
    expect(proxyFromEnv('http://0.0.0.0:9', all)).toBe('http://p:1/');
  });

  it('NO_PROXY: `*`, a name and everything under it, a port, either case', () => {
    const cases: Array<[string, string, string, boolean]> = [
      ['*', 'api.example.com', '443', true],
      ['example.com', 'example.com', '443', true],
      ['example.com', 'api.example.com', '443', true],
      ['.example.com', 'api.example.com', '443', true],
      ['*.example.com', 'api.example.com', '443', true],
      ['example.com', 'notexample.com', '443', false],
      ['example.com', 'example.com.evil.test', '443', false],
      ['other.test, example.com', 'api.example.com', '443', true],
      ['example.com:8443', 'api.example.com', '8443', true],
      ['example.com:8443', 'api.example.com', '443', false],
      ['EXAMPLE.com', 'api.example.com', '443', true],
      ['::1', '::1', '80', true],
      ['[2001:db8::1]:80', '2001:db8::1', '80', true],
      ['', 'api.example.com', '443', false],
      ['.', 'api.example.com', '443', false],
    ];
    for (const [list, host, port, expected] of cases)
      expect(exempt(list, host, port), `${list} / ${host}:${port}`).toBe(expected);
    expect(
      proxyFromEnv('https://api.example.com', env({ HTTPS_PROXY: 'p:1', no_proxy: 'example.com' })),
    ).toBeUndefined();
    expect(proxyFromEnv('https://api.example.com', env({ HTTPS_PROXY: 'p:1', NO_PROXY: 'other.com' }))).toBe(
      'http://p:1/',
    );
  });

  it('NO_PROXY matches a name and the names under it, and nothing that merely ends the same', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);
    const name = fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.'));
    fc.assert(
      fc.property(name, fc.array(label, { maxLength: 2 }), label, (entry, under, glued) => {
        const host = [...under, entry].join('.');
        expect(exempt(entry, host, '443')).toBe(true);
        expect(exempt(`.${entry}`, host, '443')).toBe(true);
        expect(exempt(entry.toUpperCase(), host, '443')).toBe(true);
        // `xexample.com` is not under `example.com`.
        expect(exempt(entry, `${glued}${entry}`, '443')).toBe(false);
      }),
    );
  });

  // An attacker's finding: `https://api.example.com.` (a fully qualified name, which DNS
  // resolves as the same host) or `NO_PROXY=example.com.` sent the request, key and all, to
  // the proxy. A trailing dot is dropped on both sides, as curl does.
  it('NO_PROXY: a trailing dot on the host or on an entry still matches; loopback with a dot is loopback', () => {
    const cases: Array<[string, string, boolean]> = [
      ['example.com', 'api.example.com.', true],
      ['example.com.', 'api.example.com', true],
      ['.example.com.', 'api.example.com.', true],
      ['example.com.:443', 'example.com.', true],
      ['example.com.', 'example.com.evil.test', false],
      ['example.com', 'notexample.com.', false],
    ];
    for (const [list, host, expected] of cases)
      expect(exempt(list, host, '443'), `${list} / ${host}`).toBe(expected);
    const proxied = env({ HTTPS_PROXY: 'p:1', HTTP_PROXY: 'p:1' });
    for (const [url, noProxy] of [
      ['https://api.example.com.', 'example.com'],
      ['https://api.example.com', 'example.com.'],
      ['https://API.Example.COM.:443', '.example.com.'],
    ] as const)
      expect(proxyFromEnv(url, { ...proxied, NO_PROXY: noProxy }), `${url} / ${noProxy}`).toBeUndefined();
    for (const url of ['http://localhost.:4010', 'http://a.localhost.', 'http://127.0.0.1.:4010'])
      expect(proxyFromEnv(url, proxied), url).toBeUndefined();
    expect(proxyFromEnv('https://example.com.evil.test.', { ...proxied, NO_PROXY: 'example.com.' })).toBe(
      'http://p:1/',
    );
  });

  it('a proxy value that is no proxy URL is a usage error naming the variable, never its value', () => {
    const call = () =>
      proxyFromEnv('https://api.example.com', env({ HTTPS_PROXY: 'socks5://me:s3cret@proxy:1080' }));
    expect(call).toThrow('HTTPS_PROXY is not an http:// or https:// proxy URL.');
    try {
      call();
    } catch (error) {
      expect(JSON.stringify(error) + String(error)).not.toContain('s3cret');
    }
  });
});

describe('through the proxy', () => {
  it('http: the request goes through HTTP_PROXY, and the plain-http warning prints once', async () => {
    const run = await h.run(['credits', '--json'], {
      env: { PROFILE_ARTICLES_BASE_URL: `http://${NAME}:${port()}`, HTTP_PROXY: proxy.url },
    });
    expect(run.code).toBe(0);
    expect(onlyJson(run.stdout).credits).toBe(1000);
    expect(proxy.requests).toEqual([`GET http://${NAME}:${port()}/api/v1/credits`]);
    expect(run.stderr.match(/plain http/g)).toHaveLength(1);
  });

  it('login warns about plain http once, before it asks for the key, though it makes a client too', async () => {
    const run = await h.run(['login', '--base-url', `http://${NAME}:${port()}`], {
      input: `${KEYS.main}\n`,
      env: {
        PROFILE_ARTICLES_API_KEY: undefined,
        PROFILE_ARTICLES_BASE_URL: undefined,
        HTTP_PROXY: proxy.url,
      },
    });
    expect(run.code).toBe(0);
    expect(run.stderr.match(/plain http/g)).toHaveLength(1);
  });

  it('https: a CONNECT through HTTPS_PROXY, TLS inside it to the server (the built CLI, trusting its certificate)', async () => {
    const run = await h.cli(['credits', '--json'], {
      env: {
        PROFILE_ARTICLES_BASE_URL: `https://${NAME}:${tls.port}`,
        https_proxy: proxy.url,
        NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'),
      },
    });
    expect(run.stderr).toBe('');
    expect(onlyJson(run.stdout).credits).toBe(1000);
    expect(proxy.connects).toEqual([`${NAME}:${tls.port}`]);
  });

  it('NO_PROXY and loopback go direct; another NO_PROXY name does not', async () => {
    const at = `http://0.0.0.0:${port()}`;
    const exempted = await h.run(['credits'], {
      env: { PROFILE_ARTICLES_BASE_URL: at, HTTP_PROXY: proxy.url, NO_PROXY: '0.0.0.0' },
    });
    expect(exempted.code).toBe(0);
    const dotted = await h.run(['credits'], {
      env: { PROFILE_ARTICLES_BASE_URL: at, HTTP_PROXY: proxy.url, NO_PROXY: 'elsewhere.test,0.0.0.0.' },
    });
    expect(dotted.code).toBe(0);
    const loopback = await h.run(['credits'], { env: { HTTP_PROXY: proxy.url, NO_PROXY: '' } });
    expect(loopback.code).toBe(0);
    expect(proxy.requests).toEqual([]);
    const other = await h.run(['credits'], {
      env: { PROFILE_ARTICLES_BASE_URL: at, HTTP_PROXY: proxy.url, no_proxy: 'elsewhere.test' },
    });
    expect(other.code).toBe(0);
    expect(proxy.requests).toEqual([`GET ${at}/api/v1/credits`]);
  });

  it('a proxy that drops the connection: one line that says so, and a hint about the proxy', async () => {
    const dropper = await droppingProxy();
    try {
      const run = await h.run(['credits'], {
        env: { PROFILE_ARTICLES_BASE_URL: `http://0.0.0.0:${port()}`, HTTP_PROXY: dropper.url },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`the proxy ${dropper.url} dropped the connection before answering`);
      expect(run.stderr).toContain('HTTP_PROXY');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await dropper.close();
    }
  });

  // An attack trial: a refusing proxy's status line held the key, and the CLI printed it as it
  // came, as text and in --json.
  it('a proxy that refuses the tunnel with the key in its reason phrase: the key shows in no spelling', async () => {
    const lower = [...KEYS.main].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    for (const words of [KEYS.main, lower]) {
      const refuser = await refusingProxy(`407 No entry for ${words}`);
      try {
        const env = { PROFILE_ARTICLES_BASE_URL: `https://${NAME}`, HTTPS_PROXY: refuser.url };
        const text = await h.run(['credits'], { env });
        const json = await h.run(['credits', '--json'], { env });
        for (const run of [text, json]) {
          expect(run.code).toBe(1);
          expect(run.stderr).toContain(
            `the proxy ${refuser.url} refused the tunnel: 407 No entry for [redacted]`,
          );
          expect(keyLeaks(run.stdout + run.stderr, KEYS.main)).toEqual([]);
        }
        expect(JSON.parse(json.stderr.trim()).error.message).toContain('[redacted]');
      } finally {
        await refuser.close();
      }
    }
  });

  it('a proxy value that is no URL stops the command before any request', async () => {
    const run = await h.run(['credits'], {
      env: { PROFILE_ARTICLES_BASE_URL: `https://${NAME}`, HTTPS_PROXY: 'ftp://me:s3cret@x' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('HTTPS_PROXY is not an http:// or https:// proxy URL.');
    expect(run.stderr).not.toContain('s3cret');
  });
});

describe('who is calling, and what it logs', () => {
  it('the User-Agent names the CLI, then the SDK and Node', async () => {
    const cli = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
    const sdk = JSON.parse(readFileSync(new URL('../../sdk/package.json', import.meta.url), 'utf8')).version;
    const agents: Array<string | undefined> = [];
    const stop = watchServerRequests(h.server.port, ({ request }) =>
      agents.push(request.headers['user-agent']),
    );
    try {
      expect((await h.run(['credits'])).code).toBe(0);
    } finally {
      stop();
    }
    expect(agents).toEqual([
      `profile-articles-cli/${cli} profile-articles-sdk/${sdk} node/${process.versions.node}`,
    ]);
  });

  it('PROFILE_ARTICLES_LOG=debug prints a line per call and per attempt on stderr; a bad value is a usage error', async () => {
    const run = await h.run(['credits'], { env: { PROFILE_ARTICLES_LOG: 'debug' } });
    expect(run.code).toBe(0);
    expect(run.stderr.match(/^info: GET \S+\/api\/v1\/credits: 200 in \d+ ms \(1 attempt\)$/gm)).toHaveLength(
      1,
    );
    expect(run.stderr.match(/^debug: GET \S+ attempt 1: 200 in \d+ ms$/gm)).toHaveLength(1);
    const json = await h.run(['credits', '--json'], { env: { PROFILE_ARTICLES_LOG: 'info' } });
    expect(JSON.parse(json.stderr.trim()).log).toMatchObject({ level: 'info' });
    const bad = await h.run(['credits'], { env: { PROFILE_ARTICLES_LOG: 'loud' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'PROFILE_ARTICLES_LOG must be one of off, error, warn, info, debug; got "loud".',
    );
  });
});

afterAll(() => {
  const all = transcript.join('\n');
  for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
});
