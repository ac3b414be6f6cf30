// Every answered request gets its request-log line (`onRequest`, what --log prints) and an
// answer like every other refusal: node:http's own parse refusals (headers past its ~16 KiB
// limit, a request line it cannot parse) too, which it answered with a bare 431 or 400 (no
// body, no content type, no x-request-id) and which reached no log at all.
import { mkdtempSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockServer, type RequestLogEntry, startMockServer } from '@profile-articles/mock-server';
import { MOCK_BIN_KINDS, startMockBin } from '@profile-articles/test-utils/mock-bins';
import { afterEach, describe, expect, it } from 'vitest';
import { rawAnswer } from './raw-http.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<{ server: MockServer; heard: RequestLogEntry[] }> {
  const heard: RequestLogEntry[] = [];
  server = await startMockServer({ port: 0, onRequest: (entry) => heard.push(entry) });
  return { server, heard };
}

/** The answer's status, headers (lower-case names) and JSON body. */
function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined };
}

describe("node:http's own refusals", () => {
  it('headers past the limit: 431 {detail}, JSON, an x-request-id, and a log line', async () => {
    const { server, heard } = await start();
    const big = `GET /api/v1/credits HTTP/1.1\r\nHost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const answer = parse(await rawAnswer(server.port, big));
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
    expect(answer.body.detail).toMatch(/headers/i);
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toMatchObject({ status: 431, requestId: answer.headers['x-request-id'] });
  });

  it('a request line it cannot parse: 400 {detail}, JSON, an x-request-id, and a log line', async () => {
    const { server, heard } = await start();
    const answer = parse(
      await rawAnswer(server.port, 'GET /api/v1/credits HTTP/1.1\r\nHost: 127.0.0.1\r\nbad header\r\n\r\n'),
    );
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
    expect(typeof answer.body.detail).toBe('string');
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toMatchObject({ status: 400, requestId: answer.headers['x-request-id'] });
  });

  it('chunk extensions past the limit: 413 {detail}, JSON, an x-request-id, and one log line', async () => {
    const { server, heard } = await start();
    const chunked =
      'POST /api/v1/articles HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-key\r\n' +
      'Content-Type: application/json\r\nIdempotency-Key: k-1\r\nTransfer-Encoding: chunked\r\n\r\n' +
      `2;a=${'b'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`;
    const answer = parse(await rawAnswer(server.port, chunked));
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
    // A request after it: once its line is heard, the refused one has had all of its own.
    await fetch(`${server.url}/api/v1/credits`, { headers: { authorization: 'Bearer demo-key' } });
    await expect.poll(() => heard.some((entry) => entry.status === 200)).toBe(true);
    expect(heard.map((entry) => entry.status)).toEqual([413, 200]);
  });

  it('the next connection is answered as usual', async () => {
    const { server } = await start();
    await rawAnswer(server.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(
      (await fetch(`${server.url}/api/v1/credits`, { headers: { authorization: 'Bearer demo-key' } })).status,
    ).toBe(200);
  });
});

/** A port free a moment ago, for a bin the test must reach before it prints its URL. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Connects as soon as the port listens (before the bin has loaded its service) and sends `request`. */
async function sendOnceListening(port: number, request: string): Promise<string> {
  for (;;) {
    const socket = connect(port, '127.0.0.1');
    const connected = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
    if (!connected) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      continue;
    }
    socket.write(request);
    socket.setEncoding('latin1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    return new Promise((resolve) => socket.on('end', () => resolve(data)));
  }
}

const SLOW_SERVICE_LOAD = fileURLToPath(new URL('./fixtures/slow-service-load.mjs', import.meta.url));

describe.each(MOCK_BIN_KINDS)('%s --log, from the first request', (kind) => {
  it('logs a request that arrived while the service loaded, and a paid one while a --data folder loaded', async () => {
    for (const extra of [[], ['--data', mkdtempSync(join(tmpdir(), 'early-log-'))]]) {
      const port = await freePort();
      const mock = startMockBin(kind, ['--port', String(port), '--log', ...extra], {
        ...process.env,
        NODE_OPTIONS: `--import ${SLOW_SERVICE_LOAD}`,
      });
      const body = JSON.stringify({ profile_id: 'ada-lovelace' });
      const answer = await sendOnceListening(
        port,
        `POST /api/v1/articles HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer demo-key\r\n` +
          `Content-Type: application/json\r\nIdempotency-Key: early-1\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 202 /);
      const requestId = /x-request-id: (\S+)/i.exec(answer)?.[1];
      const out = await mock.waitForOutput(/ POST \/api\/v1\/articles /);
      expect(out).toMatch(new RegExp(` POST /api/v1/articles 202 -100 ${requestId} `));
      mock.child.kill('SIGTERM');
      expect(await mock.exited).toBe(0);
    }
  });
});
