// Against the mock over HTTP at 30 requests a minute: no 429, one charge per profile per run
// id, and a rerun of the same run id pays nothing.
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { ProfileArticles } from '@profile-articles/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshKey, refreshProfiles } from './refresh.js';

const KEY = 'example-bulk-refresh-key';
let server: MockServer;
const profiles = Array.from({ length: 6 }, (_, i) => `member-${i}`);

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    config: {
      accounts: [
        { id: 'team', apiKeys: [KEY], credits: 10_000, pricing: { requests_per_minute: 30 } },
        { id: 'setup', apiKeys: ['setup-key'], credits: 10_000 },
      ],
      jobs: { queuedMs: 0, runningMs: 100 },
    },
  });
  // The articles exist already (articles are shared by all accounts), made by another account.
  const setup = new ProfileArticles({ apiKey: 'setup-key', baseUrl: server.url, pollIntervalMs: 50 });
  await Promise.all(profiles.map((id) => setup.articles.generateAndWait(id)));
});
afterAll(() => server.close());

const stats = async () => (await fetch(`${server.url}/_mock/stats`)).json();
const balance = () => server.service.balance('team');

describe('refreshProfiles', () => {
  it('refreshes each profile once, paced (no 429), and a rerun of the run id pays nothing', async () => {
    const client = new ProfileArticles({
      apiKey: KEY,
      baseUrl: server.url,
      pacing: 'auto',
      pollIntervalMs: 150,
    });
    const start = balance();
    const results = await refreshProfiles(client, [...profiles, profiles[0]!], { runId: 'june' });
    expect(results.filter((r) => r.article)).toHaveLength(6);
    expect(start - balance()).toBe(600);

    const again = await refreshProfiles(client, profiles, { runId: 'june' });
    expect(again.every((r) => r.article)).toBe(true);
    expect(start - balance()).toBe(600);
    expect((await stats()).accounts.team.rateLimited).toBe(0);
  });

  it('derives keys within the interface’s 200 characters', () => {
    expect(refreshKey('r'.repeat(300), 'p'.repeat(200)).length).toBeLessThanOrEqual(200);
    expect(refreshKey('a', 'x')).not.toBe(refreshKey('b', 'x'));
  });
});
