// The node:http adapter: @hono/node-server's listener serves the service's fetch handler
// without building a WHATWG Request and Response per request where it can avoid it.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { MockConfig, NormalizedConfig } from './config.js';
import { createMockService, MAX_BODY_BYTES, type MockService } from './service.js';

export interface StartOptions {
  /** 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1: the mock is for this machine only. */
  host?: string;
  config?: MockConfig | NormalizedConfig;
  /** Serve an existing service instead of creating one from `config`. */
  service?: MockService;
  /** Hears of the mock's own errors (see MockServiceOptions.onError) when it creates the service. */
  onError?: (error: unknown) => void;
}

export interface MockServer {
  /** `http://127.0.0.1:PORT`: the base URL to give the SDK or CLI. */
  url: string;
  port: number;
  service: MockService;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';

export function startMockServer(options: StartOptions = {}): Promise<MockServer> {
  const service =
    options.service ?? createMockService(options.config, options.onError ? { onError: options.onError } : {});
  const listenHost = options.host ?? DEFAULT_HOST;
  const listener = getRequestListener(async (request, env) => {
    const response = await service.handle(request, { listenHost });
    // A `reset` fault: the service's transport-free way to say "drop the connection".
    if (response.type === 'error') {
      (env as { incoming: IncomingMessage }).incoming.socket.destroy();
      return new Response(null, { status: 204 });
    }
    return response;
  });
  const server = createServer((req, res) => {
    // An oversized body is refused (413) without being read to its end, so the
    // connection cannot carry another request: tell the client not to reuse it.
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) res.setHeader('connection', 'close');
    void listener(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, listenHost, () => {
      const info = server.address() as AddressInfo;
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        service,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            // Keep-alive sockets would hold the server open; close them with it.
            server.closeAllConnections();
          }),
      });
    });
  });
}
