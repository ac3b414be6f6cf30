// The node:http adapter: @hono/node-server serves the service's fetch handler without
// building a WHATWG Request and Response per request where it can avoid it.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { MockConfig, NormalizedConfig } from './config.js';
import { createMockService, type MockService } from './service.js';

export interface StartOptions {
  /** 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1: the mock is for this machine only. */
  host?: string;
  config?: MockConfig | NormalizedConfig;
  /** Serve an existing service instead of creating one from `config`. */
  service?: MockService;
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
  const service = options.service ?? createMockService(options.config);
  const host = options.host ?? DEFAULT_HOST;
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: service.handle, port: options.port ?? DEFAULT_PORT, hostname: host },
      (info: AddressInfo) => {
        const urlHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        resolve({
          url: `http://${urlHost}:${info.port}`,
          port: info.port,
          service,
          close: () =>
            new Promise<void>((done, fail) => {
              // Keep-alive sockets would hold the server open; close them with it.
              (server as { closeAllConnections?: () => void }).closeAllConnections?.();
              server.close((error) => (error ? fail(error) : done()));
            }),
        });
      },
    );
    server.once('error', reject);
  });
}
