// HTTP proxies for tests, on 127.0.0.1: a real one (the `proxy` package: CONNECT for https,
// absolute-URI requests for http) that records what it was asked, and hostile ones that drop
// every connection once they have read the request's head, or refuse it with a status line
// of their own words.
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { createProxy } from 'proxy';

export interface StartedProxy {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The CONNECT targets asked for (`host:port`), as the client wrote them. */
  connects: string[];
  /** The plain-http requests relayed, as `METHOD absolute-URL` as the client wrote them. */
  requests: string[];
  close(): Promise<void>;
}

/** Closes `server` and every connection it has, tunnels included (they outlive the HTTP layer). */
function closer(server: Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A working proxy. `hosts` maps names to the addresses the proxy connects to instead (its own
 * /etc/hosts): a client asks for `api.proxied.test`, which is not loopback, and the proxy
 * reaches the server on 127.0.0.1, as a corporate proxy resolves names its clients cannot.
 * `refuse`: it refuses everyone (407 Proxy Authentication Required), CONNECT and requests alike.
 */
export async function startProxy(
  options: { hosts?: Record<string, string>; refuse?: boolean } = {},
): Promise<StartedProxy> {
  const hosts = options.hosts ?? {};
  const connects: string[] = [];
  const requests: string[] = [];
  const server = createProxy(createHttpServer());
  if (options.refuse) server.authenticate = () => false;
  const close = closer(server);
  const mapped = (host: string) => hosts[host.replace(/^\[|\]$/g, '')] ?? host;
  // Ahead of the proxy's own listeners: record what was asked, then point it at the mapped address.
  server.prependListener('connect', (req) => {
    const target = req.url ?? '';
    connects.push(target);
    const at = target.lastIndexOf(':');
    req.url = `${mapped(target.slice(0, at))}${target.slice(at)}`;
  });
  server.prependListener('request', (req) => {
    requests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'http://invalid');
    url.hostname = mapped(url.hostname);
    req.url = url.href;
  });
  return { url: await listen(server), connects, requests, close };
}

/**
 * A proxy that reads the head of whatever it is sent (a CONNECT or a request) and then drops
 * the connection without a word. `dropped` counts the connections it dropped.
 */
export async function droppingProxy(): Promise<{
  url: string;
  dropped: () => number;
  close(): Promise<void>;
}> {
  let dropped = 0;
  const server = createServer((socket) => {
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      dropped++;
      socket.destroy();
    });
    socket.on('error', () => {});
  });
  const close = closer(server);
  return { url: await listen(server), dropped: () => dropped, close };
}

/**
 * A proxy that answers whatever it is sent (a CONNECT or a request) with `statusLine` (such as
 * `407 Who is sk-live-…?`, the reason phrase being anything a hostile proxy likes) and closes.
 */
export async function refusingProxy(statusLine: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((socket) => {
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.end(`HTTP/1.1 ${statusLine}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`, 'latin1');
    });
    socket.on('error', () => {});
  });
  const close = closer(server);
  return { url: await listen(server), close };
}
