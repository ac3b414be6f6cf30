// The CLI paths of the money-safety issue, as a person meets them: a lost answer tells the
// key to retry with, a broken settings file says how to recover, a piped login does not wait
// for EOF, buy --wait ends while other spending goes on, and plain http to another host warns.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { payCheckoutPage } from '@profile-articles/mock-server';
import { plainHttpWarning } from '@profile-articles/sdk/internal';
import { losingProxy } from '@profile-articles/test-utils/losing-proxy';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_FIELDS, KEYS, onlyJson, transcript, useCliMock } from './helpers.js';

const h = useCliMock();

const balance = async () => onlyJson((await h.run(['credits', '--json'])).stdout).credits as number;

describe('a lost answer of generate or update prints the key and the safe retry', () => {
  it('after 5xx: the printed command finishes the job without a second charge', async () => {
    const proxy = await losingProxy(h.server.url);
    try {
      const lost = await h.run(['generate', 'ada-lovelace', '--no-wait'], {
        env: { PROFILE_ARTICLES_BASE_URL: proxy.url },
      });
      expect(lost.code).toBe(1);
      const retry = /Retry safely, without paying twice: (profile-articles .+)$/m.exec(lost.stderr);
      expect(retry, lost.stderr).not.toBeNull();
      const args = retry![1]!.split(' ').slice(1);
      expect(args.slice(0, 3)).toEqual(['generate', 'ada-lovelace', '--idempotency-key']);
      // The retry behaves as the command did: it keeps --no-wait.
      expect(args).toContain('--no-wait');
      // The server did the work once; retrying as told answers with that job.
      expect(await balance()).toBe(900);
      const again = await h.run([...args, '--json']);
      expect(again.code).toBe(0);
      expect(onlyJson(again.stdout).profile_id).toBe('ada-lovelace');
      expect(await balance()).toBe(900);
      // Without --no-wait the same key waits for that job's end, still without a second charge.
      const waited = await h.run([...args.filter((arg) => arg !== '--no-wait'), '--json']);
      expect(onlyJson(waited.stdout).status).toBe('succeeded');
      expect(await balance()).toBe(900);
    } finally {
      await proxy.close();
    }
  });

  it('under --json the last stderr line is the error object, with the key', async () => {
    const proxy = await losingProxy(h.server.url);
    try {
      const lost = await h.run(['update', 'ada-lovelace', '--json', '--idempotency-key', 'my-key-1'], {
        env: { PROFILE_ARTICLES_BASE_URL: proxy.url },
      });
      expect(lost.code).toBe(1);
      expect(lost.stdout).toBe('');
      const last = JSON.parse(lost.stderr.trim().split('\n').at(-1)!);
      expect(last.error).toMatchObject({
        type: 'ServerError',
        status: 500,
        idempotency_key: 'my-key-1',
        attempts: 3,
      });
      expect(Object.keys(last.error)).toEqual(ERROR_FIELDS);
      expect(last.error.hint).toContain('profile-articles update ada-lovelace --idempotency-key my-key-1');
    } finally {
      await proxy.close();
    }
  });

  it('after a connection that broke once the request had gone out', async () => {
    // Reads the request, then drops the connection without an answer: the job may have started.
    const dropping = createNetServer((socket) => socket.once('data', () => socket.destroy()));
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = dropping.address() as AddressInfo;
      const result = await h.run(['generate', 'grace-hopper'], {
        env: { PROFILE_ARTICLES_BASE_URL: `http://127.0.0.1:${port}` },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /The server may have started the job\. Retry safely, without paying twice: profile-articles generate grace-hopper --idempotency-key \S+/,
      );
      // The SDK's words for code (error.idempotencyKey) are not the CLI's: the retry command is.
      expect(result.stderr).toMatch(
        /^Error: Could not reach http:\S+ \(\w+\) after 3 attempts\. The server may have acted on the request\.$/m,
      );
      expect(result.stderr).not.toContain('error.idempotencyKey');
    } finally {
      await new Promise((resolve) => dropping.close(resolve));
    }
  });
});

describe('a broken settings file', () => {
  const SECRET = 'pa_live_SECRETBYTES_42';
  const bare = { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined };
  const write = (text: string) => {
    mkdirSync(h.configDir, { recursive: true });
    const path = join(h.configDir, 'config.json');
    writeFileSync(path, text);
    return path;
  };

  it.each([
    ['not JSON', `{"apiKey": "${SECRET}`],
    ['wrongly typed', `{"apiKey": ["${SECRET}"], "baseUrl": 42}`],
    ['not an object', `"${SECRET}"`],
  ])(
    '%s: names the file and how to fix it, never its bytes; config path and logout still work',
    async (_, text) => {
      const path = write(text);
      const failed = await h.run(['credits'], { env: bare });
      expect(failed.code).toBe(2);
      expect(failed.stderr).toContain(path);
      expect(failed.stderr).toContain('profile-articles config path');
      expect(failed.stderr).toContain('profile-articles logout');
      expect(failed.stderr).not.toContain('SECRETBYTES');
      expect(failed.stderr).not.toMatch(/Unexpected/);
      expect(failed.stderr.trim().split('\n')).toHaveLength(2);

      const where = await h.run(['config', 'path'], { env: bare });
      expect(where.code).toBe(0);
      expect(where.stdout.trim()).toBe(path);

      const logout = await h.run(['logout'], { env: bare });
      expect(logout.code).toBe(0);
      expect(logout.stdout).not.toContain('SECRETBYTES');
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ profiles: {} });
      expect((await h.run(['config', 'get', 'base-url'], { env: bare })).stderr).toMatch(/not set/);
    },
  );
});

describe('login with piped stdin', () => {
  it('reads the first line and goes on, though the pipe stays open', async () => {
    const stdin = new PassThrough();
    stdin.write(`${KEYS.main}\nanything else\n`);
    const login = h.run(['login', '--base-url', h.server.url], {
      env: { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined },
      input: stdin,
    });
    // The pipe is ended only after login is done: a login that waited for the end of stdin
    // would never finish, and the test would time out.
    const result = await login.finally(() => stdin.end());
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Logged in to/);
  });

  it('checks the origin before asking for the key', async () => {
    const stdin = new PassThrough();
    const result = await h.run(['login'], {
      env: { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined },
      input: stdin,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/No API origin is set/);
    expect(stdin.readableFlowing).not.toBe(true);
  });
});

describe('buy --wait', () => {
  it('ends when the payment lands though other spending happened meanwhile', async () => {
    let output = '';
    let heard = () => {};
    const bought = h.run(['buy', '100', '--wait', '--timeout', '10'], {
      onOutput: (stdout, stderr) => {
        output = stdout + stderr;
        heard();
      },
    });
    /** Resolves once the CLI has printed something that matches. */
    const printed = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve) => {
        heard = () => {
          const match = pattern.exec(output);
          if (match) resolve(match);
        };
        heard();
      });
    const url = (await printed(/(http:\S+\/checkout\/cs_test_\w+)/))[1]!;
    // Another terminal spends while this one waits: the balance never reaches start + 100. The
    // payment lands once the waiting CLI has seen the lower balance, as it would between checks.
    expect((await h.run(['generate', 'spender', '--no-wait'])).code).toBe(0);
    await printed(/balance 900/);
    await payCheckoutPage(url);
    const result = await bought;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Payment received: your balance is 1000 credits/);
  });

  it('--timeout gives up with exit 1 and says how to check later', async () => {
    // Nobody pays: without the timeout this run would never end (and the test would time out).
    const result = await h.run(['buy', '100', '--wait', '--timeout', '0.5']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Stopped waiting after/);
    expect(result.stderr).toContain('profile-articles credits');
  });
});

describe('plain http to another machine', () => {
  it('warns once on stderr; loopback and https do not', async () => {
    // An over-long id is refused before any request, so no network is needed to see the warning.
    const long = 'x'.repeat(201);
    const remote = await h.run(['read', long], {
      env: { PROFILE_ARTICLES_BASE_URL: 'http://api.example.com' },
    });
    expect(remote.stderr.match(/plain http/g)).toHaveLength(1);
    expect(remote.stderr).toContain('http://api.example.com');
    for (const url of ['https://api.example.com', h.server.url, 'http://localhost:9', 'http://[::1]:9']) {
      const quiet = await h.run(['read', long], { env: { PROFILE_ARTICLES_BASE_URL: url } });
      expect(quiet.stderr, url).not.toMatch(/plain http/);
    }
    // Which origins warn is the SDK's rule (plainHttpWarning): a name that starts like a
    // loopback address is a name, which DNS may send anywhere.
    for (const url of ['http://10.0.0.5:4010', 'http://127.0.0.1.evil.example', 'http://127.evil.example'])
      expect(plainHttpWarning(url), url).toBeDefined();
    for (const url of ['http://127.0.0.2', 'http://127.1:4010'])
      expect(plainHttpWarning(url), url).toBeUndefined();
  });
});

afterAll(() => {
  const all = transcript.join('\n');
  for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
});
