// vitest's fake timers move the mock's clock: the service reads Date.now() whenever it needs the
// time, so the jobs, the SDK's polls and its timeouts all run on the one clock the test moves.
import { createMockService } from '@profile-articles/mock-server';
import { createHandlers } from '@profile-articles/mock-server/msw';
import { JobFailedError, ProfileArticles } from '@profile-articles/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';

const baseUrl = 'https://profile-articles.test';
// Made before the fake timers are turned on: it follows them all the same.
const service = createMockService({
  accounts: [{ id: 'test', apiKeys: ['test-key'], credits: 500 }],
  jobs: { queuedMs: 30_000, runningMs: 60_000 },
});
const server = setupServer(...createHandlers(service, { baseUrl }));
const strict = { onUnhandledFrame: 'error', onUnhandledRequest: 'error' } as const;

beforeAll(() => server.listen(strict));
beforeEach(() => {
  service.reset();
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());
afterAll(() => server.close());

it('refunds a job that fails, on fake timers', async () => {
  const client = new ProfileArticles({ apiKey: 'test-key', baseUrl });
  // The next generate starts a job that fails once it has run: reserved, then refunded.
  const stub = service.stub({
    match: { route: 'POST /api/v1/articles', profileId: 'ada-lovelace' },
    outcome: { job: 'fails', error: 'the sources could not be read' },
  });
  const waiting = client.articles.generateAndWait('ada-lovelace');
  const failed = expect(waiting).rejects.toBeInstanceOf(JobFailedError);
  await vi.waitFor(() => expect(service.balance('test')).toBe(400)); // reserved
  // A minute and a half of the mock's time, and the SDK's polls every 10 s, in no real time.
  await vi.advanceTimersByTimeAsync(100_000);
  await failed;
  expect(stub.matched()).toBe(1);
  expect(service.balance('test')).toBe(500);
  expect(service.ledger().entries.map((entry) => entry.kind)).toEqual(['reservation', 'refund']);
});
