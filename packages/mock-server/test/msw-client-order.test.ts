// docs/testing.md, "In-process, with msw": on Node the client may be made before msw listens.
// Its default transport sends over node:http, looking up `http.request` on every call, which
// msw's interceptor patches once it listens; a client made afterwards takes the replaced
// global fetch instead. Either way msw answers.
import { createMockService } from '@profile-articles/mock-server';
import { createHandlers } from '@profile-articles/mock-server/msw';
import { ProfileArticles } from '@profile-articles/sdk';
import { setupServer } from 'msw/node';
import { afterEach, expect, it } from 'vitest';

const baseUrl = 'https://profile-articles.test';
const strict = { onUnhandledFrame: 'error', onUnhandledRequest: 'error' } as const;
let close = () => {};
afterEach(() => close());

it.each(['before', 'after'])('a client made %s server.listen() is answered by msw', async (when) => {
  const service = createMockService({ accounts: [{ id: 'test', apiKeys: ['test-key-01'], credits: 500 }] });
  const server = setupServer(...createHandlers(service, { baseUrl }));
  const make = () => new ProfileArticles({ apiKey: 'test-key-01', baseUrl, maxRetries: 0 });
  const early = when === 'before' ? make() : undefined;
  server.listen(strict);
  close = () => server.close();
  const client = early ?? make();
  expect((await client.credits.balance()).credits).toBe(500);
});
