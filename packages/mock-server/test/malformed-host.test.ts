// A Host header that is not a host name at all (an empty one, a port that is not a number,
// user info, a list) is the client's mistake: a 400 with {detail}, like every other refusal,
// and never the bare text/plain answer the HTTP layer would give on its own.
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, type SocketAnswer } from './raw-http.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

/** One GET of the balance with this Host line (none for null). */
function raw(host: string | null): Promise<SocketAnswer> {
  const hostLine = host === null ? '' : `Host: ${host}\r\n`;
  return rawExchange(
    server.port,
    `GET /api/v1/credits HTTP/1.1\r\n${hostLine}Authorization: Bearer demo-key\r\nConnection: close\r\n\r\n`,
  );
}

describe('a malformed Host', () => {
  it.each(['', 'localhost:abc', 'localhost@evil.com', 'localhost, evil.com', 'a b'])(
    'Host "%s" is a 400 with {detail}',
    async (host) => {
      const answer = await raw(host);
      expect(answer.status).toBe(400);
      expect(answer.type).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body).detail).toMatch(/Host/);
    },
  );

  // The pattern alone let these through to @hono/node-server, whose URL parse refused them with a
  // bare text/plain 400: a port past 65535, an IPv6 literal that does not parse, an address the
  // URL parser rewrites (127.1 is 127.0.0.1 to it).
  it.each(['127.0.0.1:99999', 'localhost:65536', '[::1::]', '127.1', '[0:0::1]'])(
    'Host "%s", which no URL parser takes as written, is a 400 with {detail}',
    async (host) => {
      const answer = await raw(host);
      expect(answer.status).toBe(400);
      expect(answer.type).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body).detail).toMatch(/Host/);
    },
  );

  it('any Host is answered in JSON, a 4xx with {detail} or a normal answer, never plain text or a 5xx', async () => {
    const name = fc.oneof(
      fc.constantFrom(
        '127.0.0.1',
        'localhost',
        'LOCALHOST',
        '127.1',
        '0x7f.1',
        '127.0.0.1.',
        '[::1]',
        '[0:0::1]',
        '[::ffff:127.0.0.1]',
        '::1',
        '[::1::]',
        '[fe80::1%25eth0]',
        'xn--',
        'xn--a',
        'ex..ample',
        'ドメイン.テスト',
        'ｌｏｃａｌｈｏｓｔ',
        'loca\u200blhost',
      ),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
    );
    const port = fc.oneof(
      fc.constant(''),
      fc.integer({ min: 0, max: 1_000_000 }).map((n) => `:${n}`),
      fc.constantFrom(':', ':00080', ':-1', ':+1', ':1e3', ':٣٠', `:${server.port}`),
    );
    // Bytes a header value may not hold at all (the HTTP parser refuses them before any handler).
    const parseable = (host: string) => !/[\x00-\x08\x0a-\x1f\x7f]/.test(host);
    await fc.assert(
      fc.asyncProperty(
        fc
          .tuple(name, port)
          .map(([n, p]) => n + p)
          .filter(parseable),
        async (host) => {
          const answer = await raw(host);
          expect(answer.status, host).toBeGreaterThanOrEqual(200);
          expect(answer.status, host).toBeLessThan(500);
          expect(answer.type, host).toMatch(/^application\/json/);
          if (answer.status >= 400) expect(typeof JSON.parse(answer.body).detail, host).toBe('string');
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a good Host still passes', async () => {
    const answer = await raw(`127.0.0.1:${server.port}`);
    expect(answer.status).toBe(200);
  });
});
