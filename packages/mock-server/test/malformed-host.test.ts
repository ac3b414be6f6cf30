// A Host header that is not a host name at all (an empty one, a port that is not a number,
// user info, a list) is the client's mistake: a 400 with {detail}, like every other refusal,
// and never the bare text/plain answer the HTTP layer would give on its own.
import { connect } from 'node:net';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

/** Sends one raw request and reads the whole answer (the connection is closed after it). */
function raw(host: string | null): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      resolve({
        status: Number(head.split(' ')[1]),
        type: /content-type: ([^\r]+)/i.exec(head)?.[1] ?? '',
        body,
      });
    });
    const hostLine = host === null ? '' : `Host: ${host}\r\n`;
    socket.write(
      `GET /api/v1/credits HTTP/1.1\r\n${hostLine}Authorization: Bearer demo-key\r\nConnection: close\r\n\r\n`,
    );
  });
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
