// The hostile-peer harness: a node:http server that answers from a script, one step per request, and records what
// it received: for fault tests the real mock server would never produce.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Step = (res: ServerResponse, req: IncomingMessage) => void;

export const reply =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

/** Drops the connection without an answer. */
export const reset: Step = (_res, req) => req.socket.destroy();

/** Reads the request whole, then resets the connection (a TCP RST, not a close): no answer. */
export const resetHard: Step = (_res, req) => req.socket.resetAndDestroy();

/** Never answers. */
export const hang: Step = () => {};

/**
 * Sends 200 headers, then one byte of a never-ending body every `everyMs`. `onByte` hears how
 * many bytes of the body went out, so that a test can act on the trickle instead of on a clock.
 */
export const trickle =
  (everyMs = 50, onByte: (bytes: number) => void = () => {}): Step =>
  (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let bytes = 1;
    res.write('{', () => onByte(bytes));
    const timer = setInterval(() => {
      bytes++;
      const sent = bytes;
      res.write(' ', () => onByte(sent));
    }, everyMs);
    res.on('close', () => clearInterval(timer));
  };

/**
 * Streams a 200 JSON body of `totalBytes` (400 MB by default), honouring backpressure, and counts in
 * `sent.bytes` what it managed to write: a client that stops reading stops the flow.
 */
export const huge =
  (sent: { bytes: number }, options: { totalBytes?: number; contentLength?: boolean } = {}): Step =>
  (res) => {
    const total = options.totalBytes ?? 400 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(options.contentLength ? { 'content-length': String(total) } : {}),
    });
    const pump = () => {
      while (sent.bytes < total && !res.destroyed) {
        sent.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  };

/** Sends headers and half a body, then drops the connection. */
export const resetMidBody: Step = (res, req) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
  res.write('{"job_id": "');
  setTimeout(() => req.socket.destroy(), 20);
};

/**
 * Writes `raw(req)` to the socket as it is, in place of an HTTP answer, then closes: a malformed
 * answer (a bad header, a broken status line) that a client's parser refuses, keeping what it read.
 */
export const rawAnswer =
  (raw: (req: IncomingMessage) => string): Step =>
  (_res, req) => {
    req.socket.end(raw(req));
  };

export async function scriptedServer(steps: Step[]) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const step = steps[Math.min(received.length - 1, steps.length - 1)]!;
      step(res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const JOB = {
  job_id: '2d4741ec-4125-418c-b9fe-6b75d4becb87',
  profile_id: 'ada-lovelace',
  status: 'queued',
  credits_charged: 100,
  article: null,
  error: null,
};
