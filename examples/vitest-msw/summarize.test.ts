// Testing your code against the mock service in-process: no port, no network, the same rules.
// Jobs here take a realistic minute and a half; the test moves the mock's clock on each poll,
// so it finishes in milliseconds without fake timers.
import { createMockService } from '@profile-articles/mock-server';
import { createHandlers } from '@profile-articles/mock-server/msw';
import { JobFailedError, ProfileArticles } from '@profile-articles/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { summarize } from './summarize.js';

const baseUrl = 'https://profile-articles.test';
const service = createMockService({
  accounts: [{ id: 'test', apiKeys: ['test-key'], credits: 500 }],
  jobs: { queuedMs: 30_000, runningMs: 60_000 },
});
const server = setupServer(...createHandlers(service, { baseUrl }));
const fastForward = { onPoll: () => service.advanceClock(15_000) };
let client: ProfileArticles;

// Any request no handler answers fails. msw 3 calls the option onUnhandledFrame, msw 2 called it
// onUnhandledRequest, and each ignores the other's: with both, this file runs on either.
const strict = { onUnhandledFrame: 'error', onUnhandledRequest: 'error' } as const;

beforeAll(() => {
  server.listen(strict);
  // After listen(): the client takes the global fetch when it is made, and msw patches it there.
  client = new ProfileArticles({ apiKey: 'test-key', baseUrl, pollIntervalMs: 1 });
});
beforeEach(() => service.reset());
afterAll(() => server.close());

it('summarizes a generated article and spends 100 credits, without waiting 90 s', async () => {
  const started = Date.now();
  expect(await summarize(client, 'ada-lovelace', fastForward)).toMatch(
    /^Ada Lovelace \(\d sources, version 1\)$/,
  );
  // Far under the 90 s a real wait would take, whatever the machine's load.
  expect(Date.now() - started).toBeLessThan(30_000);
  expect(service.balance('test')).toBe(400);
});

it('reads an existing article for 1 credit the second time', async () => {
  await summarize(client, 'ada-lovelace', fastForward);
  await summarize(client, 'ada-lovelace', fastForward);
  expect(service.balance('test')).toBe(399);
});

it('surfaces a failed job, whose credits are refunded', async () => {
  await expect(summarize(client, 'fail-someone', fastForward)).rejects.toBeInstanceOf(JobFailedError);
  expect(service.balance('test')).toBe(500);
});
