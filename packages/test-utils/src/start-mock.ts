// The mock service reachable at a base URL, over real HTTP (127.0.0.1, port 0) or behind msw:
// the one place tests choose the transport, so a suite can run the same checks over both.
import {
  createMockService,
  type MockConfig,
  type MockService,
  startMockServer,
} from '@profile-articles/mock-server';
import { createHandlers } from '@profile-articles/mock-server/msw';
import { setupServer } from 'msw/node';

export type TransportKind = 'http' | 'msw';

export interface StartedMock {
  baseUrl: string;
  service: MockService;
  close(): Promise<void> | void;
}

export async function startMock(
  kind: TransportKind,
  config: MockConfig,
  options: { mswBaseUrl?: string; onUnhandledRequest?: 'bypass' | 'error' } = {},
): Promise<StartedMock> {
  if (kind === 'http') {
    const server = await startMockServer({ port: 0, config });
    return { baseUrl: server.url, service: server.service, close: server.close };
  }
  const service = createMockService(config);
  const baseUrl = options.mswBaseUrl ?? 'http://mock.test';
  const msw = setupServer(...createHandlers(service, { baseUrl }));
  // msw 3 names the option onUnhandledFrame, msw 2 onUnhandledRequest; each ignores the other's
  // name, and the handlers are tested on both (vitest.config.ts, the msw 2 project).
  const unhandled = options.onUnhandledRequest ?? 'bypass';
  const listenOptions = { onUnhandledFrame: unhandled, onUnhandledRequest: unhandled };
  msw.listen(listenOptions);
  return { baseUrl, service, close: () => msw.close() };
}
