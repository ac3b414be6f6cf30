// A header sent twice reaches the rules as `Request.headers.get` gives it (the values joined
// with ", "), whichever transport carried it: the node adapter reads headers from the
// IncomingMessage itself, where Node keeps only the first Authorization or Host, so a
// repeated one must not quietly authenticate over HTTP when it does not in process.
import { createMockService, type MockServer, startMockServer } from '@profile-articles/mock-server';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rawExchange } from './raw-http.js';

let server: MockServer;
beforeEach(async () => {
  server = await startMockServer({ port: 0 });
});
afterEach(() => server.close());

type Lines = Array<[string, string]>;

/** One raw HTTP/1.1 request with exactly these header lines; the status and body it got. */
async function overHttp(method: string, path: string, lines: Lines, body = '') {
  const headers = [...lines, ['Host', `127.0.0.1:${server.port}`], ['Connection', 'close']]
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const length = body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : '';
  const answer = await rawExchange(
    server.port,
    `${method} ${path} HTTP/1.1\r\n${headers}${length}\r\n${body}`,
  );
  return { status: answer.status, body: answer.body };
}

/** A Request with these header lines, its headers built as fetch builds them. */
function inProcessRequest(method: string, path: string, lines: Lines, body?: string): Request {
  const headers = new Headers();
  for (const [name, value] of lines) headers.append(name, value);
  return new Request(`http://127.0.0.1${path}`, { method, headers, ...(body ? { body } : {}) });
}

/** The same request through the service in process. */
async function inProcess(method: string, path: string, lines: Lines, body?: string) {
  const response = await createMockService().handle(inProcessRequest(method, path, lines, body));
  return { status: response.status, body: await response.text() };
}

describe('a repeated header', () => {
  it('two Authorization lines are refused over HTTP as in process', async () => {
    const lines: Lines = [
      ['Authorization', 'Bearer demo-key'],
      ['Authorization', 'Bearer demo-key'],
    ];
    const expected = await inProcess('GET', '/api/v1/credits', lines);
    expect(expected.status).toBe(401);
    expect(await overHttp('GET', '/api/v1/credits', lines)).toEqual(expected);
  });

  it('two Idempotency-Key lines reach the rules joined, over HTTP as in process', async () => {
    const lines: Lines = [
      ['Authorization', 'Bearer demo-key'],
      ['Content-Type', 'application/json'],
      ['Idempotency-Key', 'first-key'],
      ['Idempotency-Key', 'second-key'],
    ];
    const body = JSON.stringify({ profile_id: 'ada-lovelace' });
    const expected = await inProcess('POST', '/api/v1/articles', lines, body);
    const answer = await overHttp('POST', '/api/v1/articles', lines, body);
    expect(answer.status).toBe(expected.status);
    // Job ids are random: compare what the rules made of the key instead.
    const journal = server.service.journal();
    expect(journal[0]?.idempotencyKey).toBe('first-key, second-key');
  });

  it('any mix of repeated header lines, in any case, reads as in process', async () => {
    // The adapter scans the raw header lines itself: names match whatever their case, and
    // every line of a name counts, in order.
    const casing = (name: string) =>
      fc
        .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
        .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
    const line = fc.oneof(
      fc.tuple(casing('authorization'), fc.constantFrom('Bearer demo-key', 'Bearer other', 'Basic x')),
      fc.tuple(casing('idempotency-key'), fc.constantFrom('k1', 'k2')),
      fc.tuple(casing('content-type'), fc.constantFrom('application/json', 'text/plain')),
      fc.tuple(casing('x-extra'), fc.constantFrom('1', 'two')),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 4 }), async (lines) => {
        const service = createMockService();
        const expected = await service.handle(inProcessRequest('GET', '/api/v1/credits', lines));
        expect(await overHttp('GET', '/api/v1/credits', lines)).toEqual({
          status: expected.status,
          body: await expected.text(),
        });
        // The key as the rules saw it, where the journal keeps it.
        expect(server.service.journal()[0]?.idempotencyKey).toBe(service.journal()[0]?.idempotencyKey);
      }),
      { numRuns: 40 },
    );
  });
});
