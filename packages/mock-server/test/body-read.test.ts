// How the node adapter reads a JSON body: taken whole from the request's buffer when the
// declared length is there (pipelined requests, and a small body that came with its headers),
// else through 'data' and 'end' as it arrives. Either way a request gets the answer it gets
// when sent in one piece, wherever the bytes are cut (even inside a UTF-8 sequence).
import type { IncomingMessage } from 'node:http';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { anyCodePoints } from '@profile-articles/test-utils/arbitraries';
import { watchServerRequests } from '@profile-articles/test-utils/http-requests';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { sendInPieces } from './raw-http.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function freshServer(): Promise<MockServer> {
  const server = await startMockServer({ port: 0 });
  servers.push(server);
  return server;
}

/** A generate with its JSON body, as bytes, asking the server to close the connection after. */
function generate(port: number, body: string, key: string, close = true): Buffer {
  const head =
    `POST /api/v1/articles HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer demo-key\r\n` +
    `Idempotency-Key: ${key}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.from(body)]);
}

/** Cuts `bytes` at the given offsets (sorted, deduplicated, inside the buffer). */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((o) => o % bytes.length))]
    .filter((o) => o > 0)
    .sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

/** The answer without what differs between two servers: the Date, new ids and times. */
const comparable = (wire: string) =>
  wire
    .replace(/\r\nDate: [^\r]+/i, '')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>');

describe('a JSON body read by the node adapter', () => {
  it('gives the answer it gives in one piece, wherever the request is cut and however late the rest comes', async () => {
    // Profile ids of every kind: valid, empty, too long, odd Unicode (a cut may split a
    // character's bytes), or no JSON string at all.
    const body = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }).map((id) => JSON.stringify({ profile_id: id })),
      anyCodePoints({ maxLength: 12 }).map((id) => JSON.stringify({ profile_id: id })),
      fc.string({ maxLength: 16 }),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), async (text, offsets) => {
        const whole = await freshServer();
        const split = await freshServer();
        const inOne = await sendInPieces(whole.port, [generate(whole.port, text, 'cut-key')], 0);
        const bytes = generate(split.port, text, 'cut-key');
        const inPieces = await sendInPieces(split.port, cut(bytes, offsets), 5);
        expect(comparable(inPieces)).toBe(comparable(inOne));
        await Promise.all(servers.splice(0).map((server) => server.close()));
      }),
      { numRuns: 20 },
    );
  });

  it('answers an empty body of declared length 0 as the service does in process', async () => {
    const server = await freshServer();
    const wire = await sendInPieces(server.port, [generate(server.port, '', 'empty-key')], 0);
    const inProcess = await server.service.handle(
      new Request('http://127.0.0.1/api/v1/articles', {
        method: 'POST',
        headers: {
          authorization: 'Bearer demo-key',
          'idempotency-key': 'empty-key-2',
          'content-type': 'application/json',
        },
        body: '',
      }),
    );
    const [head = '', answer = ''] = wire.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe(`HTTP/1.1 ${inProcess.status} Unprocessable Entity`);
    expect(answer).toBe(await inProcess.text());
  });

  it('takes a body that is already buffered without a data listener, and one that comes later through one', async () => {
    const server = await freshServer();
    const requests: IncomingMessage[] = [];
    const stop = watchServerRequests(server.port, ({ request }) => requests.push(request));
    try {
      // Two generates written at once: the second one's body is buffered when it is handled.
      const first = generate(server.port, '{"profile_id":"ada"}', 'buffered-1', false);
      const second = generate(server.port, '{"profile_id":"grace"}', 'buffered-2');
      const wire = await sendInPieces(server.port, [Buffer.concat([first, second])], 0);
      expect(wire.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 202', 'HTTP/1.1 202']);
      expect(requests.map((request) => request.listenerCount('data'))).toEqual([0, 0]);
      // Headers first, the body 30 ms later: it has to be waited for.
      requests.length = 0;
      const late = generate(server.port, '{"profile_id":"lovelace"}', 'late-key');
      const split = late.indexOf('\r\n\r\n') + 4;
      const answer = await sendInPieces(server.port, [late.subarray(0, split), late.subarray(split)], 30);
      expect(answer).toMatch(/^HTTP\/1\.1 202 /);
      expect(answer).toContain('"profile_id":"lovelace"');
      expect(requests.map((request) => request.listenerCount('data'))).toEqual([1]);
    } finally {
      stop();
    }
  });
});
