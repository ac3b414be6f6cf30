// A hostile server that behaves as the real mock in every answer but the ones a test rewrites: it
// forwards each request to the mock, then hands the answer (and the key the client sent) to the
// test to change before the client sees it. For lies inside a conversation that is otherwise
// right: a checkout URL no browser should open, a key echoed back in some encoding.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown;
}

export interface Asked {
  method: string;
  /** Path and query, as sent. */
  path: string;
  /** The bearer token of the request's Authorization header. */
  apiKey: string | undefined;
}

/** The answer to send instead, or undefined to send the mock's own. */
export type Rewrite = (answer: Answer, asked: Asked) => Answer | undefined;

// Set again for the body as it leaves the proxy; the rest of the mock's headers pass through.
const RECOMPUTED = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function rewritingProxy(target: string, rewrite: Rewrite) {
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name !== 'host' && typeof value === 'string') headers.set(name, value);
    }
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const response = await fetch(new URL(path, target), {
      method,
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      redirect: 'manual',
    });
    const original: Answer = {
      status: response.status,
      headers: Object.fromEntries([...response.headers].filter(([name]) => !RECOMPUTED.has(name))),
      body: parsed(await response.text()),
    };
    const apiKey = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const answer = rewrite(original, { method, path, apiKey }) ?? original;
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.status === 204 ? undefined : text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
