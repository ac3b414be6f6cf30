// A real mock over node:http for one test file: started once on port 0, closed after the
// file, its state reset before each test, so the file's tests share a server, not a ledger.
import { type MockConfig, type MockServer, startMockServer } from '@profile-articles/mock-server';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** The running mock's URL and service, readable from the first test on. */
export type MockSuite = Pick<MockServer, 'url' | 'service'>;

export function useMockServer(config: MockConfig): MockSuite {
  let server: MockServer | undefined;
  const running = () => {
    if (!server) throw new Error('the mock starts in beforeAll: use it inside a test or hook');
    return server;
  };
  beforeAll(async () => {
    server = await startMockServer({ port: 0, config });
  });
  afterAll(() => server?.close());
  beforeEach(() => running().service.reset());
  return {
    get url() {
      return running().url;
    },
    get service() {
      return running().service;
    },
  };
}
