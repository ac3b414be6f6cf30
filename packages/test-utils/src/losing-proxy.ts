// A peer between the client and the mock that forwards every request, then loses the answer of
// every POST: the effect happens on the mock, the client sees a 500. How a lost answer of a paid
// call is met (a retry with the same idempotency key must not pay twice).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Forwards to the mock, then loses the answer of every POST: the effect happens, the client sees 500. */
export async function losingProxy(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        ([name]) => !['host', 'connection', 'content-length'].includes(name),
      ),
    ) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = await answer.text();
    if (req.method === 'POST') {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"lost on the way back"}');
    } else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
