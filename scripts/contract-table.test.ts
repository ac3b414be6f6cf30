// The contract table is the one place an endpoint is written down: every entry must have a
// route in the mock and a method in the SDK, and this test fails when one is missing.
import { startMockServer } from '@profile-articles/mock-server';
import { isJob, ProfileArticles } from '@profile-articles/sdk';
import { API_PREFIX, ENDPOINTS, type Endpoint } from '@profile-articles/sdk/internal';
import { endpointFor } from '@profile-articles/test-utils/mock-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeConfig } from '../packages/mock-server/src/config.js';
import { createLiveState } from '../packages/mock-server/src/live-state.js';
import { createApiRoutes, honoPath } from '../packages/mock-server/src/routes/api.js';

type Table = Record<string, Endpoint>;

/** Entries the mock registers no route for. */
function withoutRoute(table: Table, routes: ReadonlyArray<{ method: string; path: string }>): string[] {
  return Object.entries(table)
    .filter(([, e]) => !routes.some((r) => r.method === e.method && r.path === honoPath(e.path)))
    .map(([name]) => name);
}

/** Entries no request in `requests` reached. */
function unreached(table: Table, requests: ReadonlyArray<{ method: string; path: string }>): string[] {
  return Object.entries(table)
    .filter(
      ([, endpoint]) =>
        !requests.some((r) => endpointFor(r.method, r.path.slice(API_PREFIX.length)) === endpoint),
    )
    .map(([name]) => name);
}

/** An entry added to the table and nowhere else. */
const untried: Table = {
  ...ENDPOINTS,
  listArticles: {
    method: 'GET',
    path: '/articles',
    pathParams: {},
    headers: {},
    responses: {},
    errors: [401],
  },
};

describe('the contract table', () => {
  it('has a mock route for every entry', () => {
    const live = createLiveState(normalizeConfig(), { newId: () => 'id', onError: () => {} });
    const routes = createApiRoutes(live).routes;
    expect(withoutRoute(ENDPOINTS, routes)).toEqual([]);
    expect(withoutRoute(untried, routes)).toEqual(['listArticles']);
  });

  describe('has an SDK method for every entry', () => {
    let server: Awaited<ReturnType<typeof startMockServer>>;
    beforeAll(async () => {
      server = await startMockServer({ port: 0 });
    });
    afterAll(() => server.close());

    it('each public method reaches its entry', async () => {
      const client = new ProfileArticles({ apiKey: 'demo-key', baseUrl: server.url, maxRetries: 0 });
      const job = await client.articles.generate('ada-lovelace');
      // Answers do not matter here, only which endpoint each method reached.
      await Promise.allSettled([
        client.articles.read('ada-lovelace'),
        client.articles.update('ada-lovelace'),
        client.jobs.get(isJob(job) ? job.job_id : ''),
        client.credits.balance(),
        client.credits.checkout(100),
      ]);
      const requests = server.service.journal();
      expect(unreached(ENDPOINTS, requests)).toEqual([]);
      expect(unreached(untried, requests)).toEqual(['listArticles']);
    });
  });
});
