// A path the caller spells (client.request(), which the CLI's `api` uses) against a real server on 127.0.0.1 that records every request line: a `.` or
// `..` segment in any spelling (an attack trial's `\..`, `%2e%2e`, `.%2e` reached `/x` with the
// key), a path starting with `//` or `\`, or another origin, is an InvalidArgumentError, and
// nothing reaches the server; any other path is sent under /api/.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVER_RESOLVED_DOT_SEGMENTS } from '@profile-articles/test-utils/dot-segments';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSentUrl } from '../src/core/request-path.js';
import { InvalidArgumentError, ProfileArticles } from '../src/node.js';
import { TRANSPORTS } from './scripted-client.js';

const KEY = 'request-path-key';
const seen: string[] = [];
const server = createServer((req, res) => {
  seen.push(req.url ?? '');
  res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
});
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A dot as a URL parser or a server may read one: as is, %2e in either case, or encoded twice. */
// Also as servers read one that a URL parser leaves alone: IIS's %u002e, overlong UTF-8, fullwidth
// (NFKC), percent-encoded up to 10 times; and the segment cut at a Tomcat/Spring path parameter
// (`;`) or a NUL.
const dot = fc.oneof(
  fc.constantFrom(
    '.',
    '%2e',
    '%2E',
    '%252e',
    '%252E',
    '%u002e',
    '%U002E',
    '%25u002e',
    '%c0%ae',
    '%C0%AE',
    '．',
  ),
  fc.integer({ min: 0, max: 10 }).map((times) => `%${'25'.repeat(times)}2e`),
);
const cut = fc.constantFrom('', '', ';', ';jsessionid=1', '%3b', '%00', '%2500');
const dotSegment = fc
  .tuple(fc.array(dot, { minLength: 1, maxLength: 2 }), cut)
  .map(([dots, after]) => `${dots.join('')}${after}`);
const slash = fc.constantFrom('/', '\\', '%2f', '%5c', '%2F', '%5C');
const plain = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const client = () => new ProfileArticles({ apiKey: KEY, baseUrl: origin, maxRetries: 0, ...options });

  it('the attack’s spellings and their kin: refused, unsent', async () => {
    for (const path of [
      '/\\..\\..\\x',
      '/%2e%2e/%2e%2e/x',
      '/.%2e/.%2e/x',
      '/%2E%2E/x',
      '/credits/../../x',
      '/articles/./x',
      '/articles/x/..',
      '/articles/%252e%252e/x',
      '/articles/..%2f..%2fx',
      '/articles/x%5c..%5cy',
      '/api/v1/../../x',
      '/api/%2e%2e/x',
      '//evil.example/x',
      '/\\evil.example/x',
      '\\evil.example',
      'https://evil.example/api/v1/credits',
      '/credits/..?x=1',
      ...SERVER_RESOLVED_DOT_SEGMENTS,
    ]) {
      const before = seen.length;
      const error = await rejectionOf(client().request({ method: 'GET', path }), InvalidArgumentError);
      expect(error.message, path).toMatch(/^path must /);
      expect(seen.slice(before), path).toEqual([]);
    }
  });

  it('any path with a . or .. segment spelled any way, anywhere in it: refused, unsent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(plain, { maxLength: 3 }),
        dotSegment,
        fc.array(plain, { maxLength: 3 }),
        fc.array(slash, { minLength: 8, maxLength: 8 }),
        fc.boolean(),
        fc.option(fc.constantFrom('?a=1', '?next=/x', '#top')),
        async (head, dots, tail, slashes, full, query) => {
          const segments = [...head, dots, ...tail];
          // The first separator is a real `/`: a path starts with one.
          const path = `${full ? '/api/v1' : ''}/${segments.map((s, i) => (i === 0 ? s : `${slashes[i % 8]}${s}`)).join('')}${query ?? ''}`;
          const before = seen.length;
          const error = await rejectionOf(client().request({ method: 'GET', path }));
          expect(error, path).toBeInstanceOf(InvalidArgumentError);
          expect(seen.slice(before), path).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a path without one is sent, under /api/, as it was spelled', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            plain,
            plain.map((s) => `${s}.`),
            plain.map((s) => `.${s}`),
            fc.constant('...'),
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        fc.boolean(),
        async (segments, full) => {
          const path = `${full ? '/api/v1' : ''}/${segments.join('/')}`;
          const before = seen.length;
          await client().request({ method: 'GET', path });
          expect(seen.slice(before)).toEqual([full ? path : `/api/v1${path}`]);
        },
      ),
      { numRuns: 100 },
    );
  });
});

// The last check, on the URL as the parser reads it (the path rule above refuses all of these
// first, so it is tested here alone): under /api/ on the client's baseUrl, or refused.
it('the URL sent: under /api/ on the client’s baseUrl, as the URL parser reads it, or an InvalidArgumentError', () => {
  for (const [url, base] of [
    ['http://h:1/api/v1/credits', 'http://h:1'],
    ['http://h:1/api/v1/articles/x?y=1', 'http://h:1'],
    ['https://h/pre/api/v1/credits', 'https://h/pre'],
  ])
    expect(() => checkSentUrl(url!, base!), url).not.toThrow();
  for (const [url, base] of [
    ['http://h:1/api/v1/../../x', 'http://h:1'],
    ['http://h:1/api/v1/%2e%2e/%2E%2e/x', 'http://h:1'],
    ['http://h:1/api\\..\\x', 'http://h:1'],
    ['http://h:1/x', 'http://h:1'],
    ['http://h:2/api/v1/credits', 'http://h:1'],
    ['http://h:1@evil.example/api/v1/credits', 'http://h:1'],
    ['https://h/api/v1/credits', 'https://h/pre'],
    ['not a url', 'http://h:1'],
  ])
    expect(() => checkSentUrl(url!, base!), url).toThrow(InvalidArgumentError);
});
