// `profile-articles api METHOD PATH`, as an operator uses it: the built bin against the mock
// over HTTP. The terminal is hostile-terminal.test.ts; the field typing is a property below.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SERVER_RESOLVED_DOT_SEGMENTS } from '@profile-articles/test-utils/dot-segments';
import { watchServerRequests } from '@profile-articles/test-utils/http-requests';
import { losingProxy } from '@profile-articles/test-utils/losing-proxy';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fieldValue, headerFlags } from '../src/commands/api.js';
import { KEYS, onlyJson, transcript, useCliMock } from './helpers.js';

const h = useCliMock();
const balance = async () => onlyJson((await h.run(['credits', '--json'])).stdout).credits as number;

describe('api', () => {
  it('GET: the answer’s JSON on stdout, PATH below /api/v1 or from the root when it starts with /api/', async () => {
    const credits = await h.cli(['api', 'GET', '/credits']);
    expect(credits.code).toBe(0);
    expect(onlyJson(credits.stdout)).toMatchObject({ credits: 1000, pricing: { read_credits: 1 } });
    expect(credits.stderr).toBe('');
    expect(onlyJson((await h.cli(['api', 'get', 'credits'])).stdout).credits).toBe(1000);
    expect((await h.cli(['api', 'GET', '/api/v1/credits', '--jq', '.credits'])).stdout).toBe('1000\n');
  });

  it('POST with -f: a JSON body, typed as gh’s -F; an idempotency key on every attempt, and --verbose says so', async () => {
    const started = await h.cli(['api', 'POST', '/articles', '-f', 'profile_id=ada-lovelace', '--verbose']);
    expect(started.code).toBe(0);
    expect(onlyJson(started.stdout)).toMatchObject({ profile_id: 'ada-lovelace', status: 'queued' });
    expect(started.stderr).toMatch(/POST \/api\/v1\/articles · 202 · .*idempotency key [0-9a-f-]{36}/);
    expect(await balance()).toBe(900);
    // A typed field: a number, not the string "500".
    const checkout = await h.cli(['api', 'POST', '/credits/checkout', '-f', 'credits=500', '--jq', '.url']);
    expect(checkout.code).toBe(0);
    expect(checkout.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/cs_test_\w+\n$/);
  });

  it('--input FILE or - sends the file as the body; a file that is not JSON is refused unsent, never echoed', async () => {
    const file = join(h.configDir, 'body.json');
    writeFileSync(file, JSON.stringify({ credits: 20 }));
    const fromFile = await h.cli(['api', 'POST', '/credits/checkout', '--input', file]);
    expect(onlyJson(fromFile.stdout).session_id).toMatch(/^cs_test_/);
    const fromStdin = await h.cli(['api', 'POST', '/credits/checkout', '--input', '-'], {
      input: '{"credits": 30}',
    });
    expect(fromStdin.code).toBe(0);
    writeFileSync(file, `not json ${KEYS.poor}`);
    const bad = await h.cli(['api', 'POST', '/credits/checkout', '--input', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`Error: --input ${file} is not valid JSON.\n`);
  });

  it('errors as the other commands give them: the server’s 4xx in a line and a hint, exit codes as documented', async () => {
    // As gh api: the answer's JSON body on stdout as it came, the error line on stderr.
    const missing = await h.cli(['api', 'GET', '/articles/nobody-here']);
    expect(missing.code).toBe(1);
    expect(onlyJson(missing.stdout)).toEqual({ detail: 'No article exists for this profile' });
    expect(missing.stderr).toMatch(/^Error: Not found \(404\)\./);
    const unpaid = await h.cli(['api', 'POST', '/articles', '-f', 'profile_id=ada-lovelace'], {
      env: { PROFILE_ARTICLES_API_KEY: KEYS.poor },
    });
    expect(unpaid.code).toBe(5);
    expect(Object.keys(onlyJson(unpaid.stdout))).toContain('detail');
    expect(unpaid.stderr).toMatch(/^Error: /);
    const filtered = await h.cli(['api', 'GET', '/articles/nobody-here', '--jq', '.detail']);
    expect(filtered.code).toBe(1);
    expect(filtered.stdout).toBe('No article exists for this profile\n');
    const refused = await h.cli([
      'api',
      'POST',
      '/articles',
      '-f',
      'profile_id=x',
      '-f',
      'extra=true',
      '--json',
    ]);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stderr.trim()).error).toMatchObject({ status: 422, type: 'ValidationError' });
    const wrongKey = await h.cli(['api', 'GET', '/credits'], {
      env: { PROFILE_ARTICLES_API_KEY: 'pa_test_WRONGKEY_0000' },
    });
    expect(wrongKey.code).toBe(4);
    expect(Object.keys(onlyJson(wrongKey.stdout))).toEqual(['detail']);
    expect(wrongKey.stderr).toMatch(/^Error: /);
    for (const args of [
      ['DELETE', '/credits'],
      ['GET', '/../_mock/requests'],
      ['GET', '/credits', '--input', '-'],
      ['POST', '/articles', '-f', 'profile_id'],
    ]) {
      const usage = await h.cli(['api', ...args]);
      expect(usage.code, args.join(' ')).toBe(2);
      expect(usage.stderr.split('\n')[0]).toMatch(/^Error: /);
    }
  });

  // An attack trial: `\..`, `%2e%2e` and `.%2e` passed the check of `.`/`..` segments, and the
  // URL parser made them `..`: the key went to `/x` on the same origin, outside /api/.
  it('a PATH with a . or .. segment in any spelling, or one that leaves the origin: exit 2, nothing sent', async () => {
    const urls: string[] = [];
    const stop = watchServerRequests(h.server.port, ({ request }) => urls.push(request.url ?? ''));
    try {
      for (const path of [
        '\\..\\..\\x',
        '/\\..\\..\\x',
        '/%2e%2e/%2e%2e/x',
        '/.%2e/.%2e/x',
        '/%2E%2E/_mock/requests',
        '/credits/%252e%252e/x',
        'articles/..%2f..%2fx',
        '//evil.example/x',
        '/api/v1/%2e%2e/%2e%2e/x',
        // A later trial: what servers resolve outside /api/ though the URL parser does not.
        ...SERVER_RESOLVED_DOT_SEGMENTS,
      ]) {
        const run = await h.cli(['api', 'GET', path]);
        expect(run.code, path).toBe(2);
        expect(run.stderr.split('\n')[0], path).toMatch(/^Error: PATH must /);
      }
    } finally {
      stop();
    }
    expect(urls).toEqual([]);
  });

  it('a POST whose answer was lost prints its key and the command that retries it without doing it twice', async () => {
    const proxy = await losingProxy(h.server.url);
    try {
      const lost = await h.cli(['api', 'POST', '/articles', '-f', 'profile_id=grace-hopper'], {
        env: { PROFILE_ARTICLES_BASE_URL: proxy.url },
      });
      expect(lost.code).toBe(1);
      const retry =
        /The server may have done it\. Retry safely, without paying twice: (profile-articles .+)$/m.exec(
          lost.stderr,
        );
      expect(retry, lost.stderr).not.toBeNull();
      const args = retry![1]!.split(' ').slice(1);
      expect(args.slice(0, 6)).toEqual([
        'api',
        'POST',
        '/articles',
        '-f',
        'profile_id=grace-hopper',
        '--idempotency-key',
      ]);
      expect(await balance()).toBe(900);
      const again = await h.cli(args);
      expect(again.code).toBe(0);
      expect(onlyJson(again.stdout).profile_id).toBe('grace-hopper');
      expect(await balance()).toBe(900);
    } finally {
      await proxy.close();
    }
  });
});

describe('api -H and -i', () => {
  it('-H sends a header of the caller’s (repeatable; a name given twice joins its values), as gh’s -H', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const stop = watchServerRequests(h.server.port, ({ request }) => seen.push({ ...request.headers }));
    try {
      const run = await h.run([
        'api',
        'GET',
        '/credits',
        '-H',
        'X-Team: billing',
        '-H',
        'x-team:ops',
        '--header',
        'X-Trace:  t-1 ',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(onlyJson(run.stdout).credits).toBe(1000);
    } finally {
      stop();
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ 'x-team': 'billing, ops', 'x-trace': 't-1' });
    expect(String(seen[0]?.authorization)).toBe(`Bearer ${KEYS.main}`);
  });

  it('-H with a header the CLI sets itself, or not as Name: value: a usage error naming it, nothing sent', async () => {
    const urls: string[] = [];
    const stop = watchServerRequests(h.server.port, ({ request }) => urls.push(request.url ?? ''));
    try {
      for (const name of ['Authorization', 'idempotency-key', 'Content-Type', 'HOST']) {
        const run = await h.run(['api', 'GET', '/credits', '-H', `${name}: Bearer ${KEYS.poor}`]);
        expect(run.code, name).toBe(2);
        expect(run.stderr, name).toBe(
          `Error: -H cannot set ${name.toLowerCase()}: the CLI sets it itself.\n`,
        );
      }
      for (const flag of ['no-colon', 'bad name: x', ': empty']) {
        const run = await h.run(['api', 'GET', '/credits', '-H', flag]);
        expect(run.code, flag).toBe(2);
        expect(run.stderr.split('\n')[0], flag).toMatch(/^Error: -H takes 'Name: value'/);
      }
    } finally {
      stop();
    }
    expect(urls).toEqual([]);
    expect(() => headerFlags(['x-a: ok\u0007'])).toThrow(/cannot carry/);
  });

  it('-i prints the status line, the answer’s headers and a blank line before the body, on stdout', async () => {
    const run = await h.run(['api', 'GET', '/credits', '-i']);
    expect(run.code, run.stderr).toBe(0);
    const [head = '', body = ''] = run.stdout.split('\n\n');
    const [status, ...lines] = head.split('\n');
    expect(status).toBe('HTTP/1.1 200 OK');
    const headers = Object.fromEntries(lines.map((line) => line.split(/: (.*)/s).slice(0, 2)));
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(headers['x-request-id']).toMatch(/^req_/);
    for (const line of lines) expect(line).toMatch(/^[a-z0-9-]+: /);
    expect(JSON.parse(body).credits).toBe(1000);
  });

  it('-i on an error answer: its status line and headers, then its body on stdout; the error on stderr, exit 1', async () => {
    const run = await h.run(['api', 'GET', '/articles/nobody-here', '-i']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^HTTP\/1\.1 404 Not Found\n(?:[a-z0-9-]+: .*\n)+\n\{/);
    expect(JSON.parse(run.stdout.slice(run.stdout.indexOf('\n\n')))).toEqual({
      detail: 'No article exists for this profile',
    });
    expect(run.stderr).toMatch(/^Error: Not found \(404\)\./);
  });

  it('-i redacts the key from the headers a server sends back, names and values alike', async () => {
    // A careless server that echoes the request's Authorization in its answer's headers.
    const echo = createServer((req, res) => {
      const auth = String(req.headers.authorization);
      res.writeHead(200, 'OK', {
        'content-type': 'application/json',
        'x-echo': auth,
        [`x-${auth.slice(7)}`]: 'named after the key',
      });
      res.end('{"ok": true}');
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
      const run = await h.run(['api', 'GET', '/echo', '-i'], { env: { PROFILE_ARTICLES_BASE_URL: url } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('x-echo: Bearer [redacted]\n');
      expect(run.stdout).toContain('x-[redacted]: named after the key\n');
      expect(run.stdout.toLowerCase()).not.toContain(KEYS.main.toLowerCase());
    } finally {
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });
});

describe('-f typing', () => {
  it('true, false, null and exact whole numbers become JSON’s; every other text stays the same string', () => {
    expect([fieldValue('true'), fieldValue('false'), fieldValue('null'), fieldValue('-12')]).toEqual([
      true,
      false,
      null,
      -12,
    ]);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const value = fieldValue(text);
        if (typeof value === 'string') expect(value).toBe(text);
        // A typed value reads back as the very text given: nothing is rounded or reformatted.
        else expect(String(value)).toBe(text);
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(fieldValue(String(n))).toBe(n);
      }),
    );
  });
});

afterAll(() => {
  const all = transcript.join('\n');
  for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
});
