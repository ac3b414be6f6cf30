// A Host header that is not a host name at all (an empty one, a port that is not a number,
// user info, a list) is the client's mistake: a 400 with {detail}, like every other refusal,
// and never the bare text/plain answer the HTTP layer would give on its own.
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
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

  it('a good Host still passes', async () => {
    const answer = await raw(`127.0.0.1:${server.port}`);
    expect(answer.status).toBe(200);
  });
});
