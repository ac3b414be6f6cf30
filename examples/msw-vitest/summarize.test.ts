// Testing your code against the mock service in-process: no port, no network, same rules.
import { createMockService } from '@profile-articles/mock-server';
import { createHandlers } from '@profile-articles/mock-server/msw';
import { ProfileArticles } from '@profile-articles/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { summarize } from './summarize.js';

const baseUrl = 'http://profile-articles.test';
const service = createMockService({
  accounts: [{ id: 'test', apiKeys: ['test-key'], credits: 500 }],
  jobs: { queuedMs: 10, runningMs: 10 },
});
const server = setupServer(...createHandlers(service, { baseUrl }));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => service.reset());
afterAll(() => server.close());

it('summarizes a generated article and spends 100 credits', async () => {
  const client = new ProfileArticles({ apiKey: 'test-key', baseUrl, pollIntervalMs: 5 });
  expect(await summarize(client, 'ada-lovelace')).toMatch(/^Ada Lovelace \(\d sources\)$/);
  expect(service.balance('test')).toBe(400);
});
