// Pipelined requests (several sent on one connection before the first answer): each gets its
// own answer, in order, the same bytes as when sent alone; and the fast lane writes an answer
// only once it owns the connection. Written earlier, node:http holds it in the response's
// pending output, and under pipelined load that output's allocation site gets pretenured by
// V8: every held answer then drags its request and response into the old generation, and
// full collections took a third of the mock's time (docs/performance.md).
import type { ServerResponse } from 'node:http';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { type ServerRequestStart, watchServerRequests } from '@profile-articles/test-utils/http-requests';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rawAnswer } from './raw-http.js';

let server: MockServer;
beforeEach(async () => {
  server = await startMockServer({ port: 0 });
});
afterEach(() => server.close());

const AUTH = 'Authorization: Bearer demo-key\r\n';

function request(method: string, path: string, extra = '', body = ''): string {
  const length = body
    ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
    : '';
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${AUTH}${extra}${length}\r\n${body}`;
}

/** The everyday requests the fast lane answers: a balance, a generate, its replay, a read. */
function everyday(key: string): string[] {
  const generate = request('POST', '/api/v1/articles', `Idempotency-Key: ${key}\r\n`, '{"profile_id":"ada"}');
  return [
    request('GET', '/api/v1/credits'),
    generate,
    generate,
    request('GET', '/api/v1/jobs/00000000-0000-4000-8000-000000000000'),
    request('GET', '/api/v1/credits'),
  ];
}

/** The same request, asking the server to close the connection after answering it. */
const closing = (text: string) => text.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n');

/** Writes `requests` on one connection at once (the last closes it) and reads every answer. */
function pipelined(requests: string[]): Promise<string> {
  const last = requests.length - 1;
  return rawAnswer(server.port, requests.map((text, i) => (i === last ? closing(text) : text)).join(''));
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/**
 * Answers split at each status line, with what differs between two runs or two connections
 * dropped: the Date, the connection headers and new job ids.
 */
const answers = (wire: string) =>
  wire
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .map((answer) =>
      answer.replace(/\r\n(Date|Connection|Keep-Alive): [^\r]+/gi, '').replace(UUID, '<uuid>'),
    );

describe('pipelined requests', () => {
  it('get their answers in order, the same bytes as one request at a time', async () => {
    const together = answers(await pipelined(everyday('pipelined-key')));
    await server.close();
    server = await startMockServer({ port: 0 });
    const alone: string[] = [];
    for (const text of everyday('pipelined-key'))
      alone.push(...answers(await rawAnswer(server.port, closing(text))));
    expect(together.map((answer) => answer.split('\r\n')[0])).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 202 Accepted',
      'HTTP/1.1 202 Accepted',
      'HTTP/1.1 404 Not Found',
      'HTTP/1.1 200 OK',
    ]);
    expect(together).toEqual(alone);
  });

  it('are carried out in the order they were sent: a balance after two generates shows both charges', async () => {
    const generate = (key: string, profile: string) =>
      request('POST', '/api/v1/articles', `Idempotency-Key: ${key}\r\n`, `{"profile_id":"${profile}"}`);
    const wire = await pipelined([
      generate('order-1', 'ada'),
      generate('order-2', 'grace'),
      request('GET', '/api/v1/credits'),
    ]);
    const statuses = answers(wire).map((answer) => answer.split('\r\n')[0]);
    expect(statuses).toEqual(['HTTP/1.1 202 Accepted', 'HTTP/1.1 202 Accepted', 'HTTP/1.1 200 OK']);
    // 1,000 opening credits, 100 reserved by each generate.
    expect(JSON.parse(answers(wire)[2]!.split('\r\n\r\n')[1]!).credits).toBe(800);
  });

  it('are answered only once each answer owns the connection, by the fast lane and the router alike', async () => {
    // Every answer's head as it is written: its request's method, and whether the response
    // owned the connection by then.
    const written: string[] = [];
    const onStart = ({ request, response }: ServerRequestStart) => {
      const writeHead = response.writeHead;
      response.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
        written.push(`${request.method} ${this.socket ? 'owned' : 'held'}`);
        return writeHead.apply(this, args);
      } as ServerResponse['writeHead'];
    };
    // A generate and its replays, then balances. A GET is answered while its request is parsed,
    // before the answers ahead of it went out, so it is the one that waits here; a POST is
    // answered once its body is read, and waits only when the connection is slow to drain (as
    // under a load generator). Both take the same path, and every answer is counted below.
    const [balance, generate] = everyday('held-key') as [string, string];
    // A request from a page (an Origin header) takes the router instead of the fast lane.
    const fromPage = request('GET', '/api/v1/credits', 'Origin: http://localhost:5173\r\n');
    const requests = [generate, ...Array<string>(7).fill(generate), balance, fromPage, balance];
    const stop = watchServerRequests(server.port, onStart);
    try {
      const wire = await pipelined(requests);
      expect(answers(wire).map((answer) => answer.split('\r\n')[0])).toEqual([
        ...Array(8).fill('HTTP/1.1 202 Accepted'),
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
      ]);
    } finally {
      stop();
    }
    expect(written).toEqual([...Array(8).fill('POST owned'), 'GET owned', 'GET owned', 'GET owned']);
  });
});
