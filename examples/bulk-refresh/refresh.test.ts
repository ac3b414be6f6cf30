// Against the mock over HTTP at 10 requests a minute: eight profiles need more than 10 requests,
// so the run only gets through without a 429 because the client paces it (the second test shows
// the same run unpaced being refused). One charge per profile per run id, and a rerun of the
// same run id pays nothing.
//
// Fake Date and setTimeout drive both the mock's clock and the client's pacer, so the minutes of
// pacing take a fraction of a second; the HTTP in between is real (setImmediate is not faked).
import { createMockService, type MockServer, startMockServer } from '@profile-articles/mock-server';
import { ProfileArticles } from '@profile-articles/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RefreshResult, refreshKey, refreshProfiles } from './refresh.js';

const KEY = 'example-bulk-refresh-key';
const UNPACED_KEY = 'example-bulk-refresh-unpaced';
let server: MockServer;
const profiles = Array.from({ length: 8 }, (_, i) => `member-${i}`);

beforeAll(async () => {
  // `now` reads Date at each call, so the mock's clock (jobs, rate window) is the fake one too.
  const service = createMockService(
    {
      accounts: [
        { id: 'team', apiKeys: [KEY], credits: 10_000, pricing: { requests_per_minute: 10 } },
        { id: 'unpaced', apiKeys: [UNPACED_KEY], credits: 10_000, pricing: { requests_per_minute: 10 } },
        { id: 'setup', apiKeys: ['setup-key'], credits: 10_000 },
      ],
      jobs: { queuedMs: 0, runningMs: 100 },
    },
    { now: () => Date.now() },
  );
  server = await startMockServer({ port: 0, service });
  // The articles exist already (articles are shared by all accounts), made by another account.
  const setup = new ProfileArticles({ apiKey: 'setup-key', baseUrl: server.url, pollIntervalMs: 50 });
  await Promise.all(profiles.map((id) => setup.articles.generateAndWait(id)));
});
afterAll(() => server.close());
afterEach(() => vi.useRealTimers());

const stats = async () => (await fetch(`${server.url}/_mock/stats`)).json();
const balance = (account: string) => server.service.balance(account);

/** Before the client is made: its pacer reads the clock it finds then. */
const fakeTime = () => vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });

/** Moves fake time 1 s per turn of the event loop until the run ends. */
async function drive(run: Promise<RefreshResult[]>): Promise<RefreshResult[]> {
  let done = false;
  void run.finally(() => {
    done = true;
  });
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(1_000);
  }
  return run;
}

describe('refreshProfiles', () => {
  it('refreshes each profile once, paced past the limit without a 429, and a rerun pays nothing', async () => {
    fakeTime();
    const client = new ProfileArticles({
      apiKey: KEY,
      baseUrl: server.url,
      pacing: 'auto',
      pollIntervalMs: 150,
    });
    const start = balance('team');
    const results = await drive(refreshProfiles(client, [...profiles, profiles[0]!], { runId: 'june' }));
    expect(results.filter((r) => r.error)).toEqual([]);
    expect(results.filter((r) => r.article)).toHaveLength(8);
    expect(start - balance('team')).toBe(800);

    const again = await drive(refreshProfiles(client, profiles, { runId: 'june' }));
    expect(again.every((r) => r.article)).toBe(true);
    expect(start - balance('team')).toBe(800);
    expect((await stats()).accounts.team.rateLimited).toBe(0);
  });

  it('without pacing the same run is refused (429): the limit really is exceeded', async () => {
    fakeTime();
    const client = new ProfileArticles({
      apiKey: UNPACED_KEY,
      baseUrl: server.url,
      pacing: false,
      maxRetries: 0,
      pollIntervalMs: 150,
    });
    const results = await drive(refreshProfiles(client, profiles, { runId: 'june' }));
    expect(results.some((r) => r.error)).toBe(true);
    expect((await stats()).accounts.unpaced.rateLimited).toBeGreaterThan(0);
  });

  it('derives keys within the interface’s 200 characters', () => {
    expect(refreshKey('r'.repeat(300), 'p'.repeat(200)).length).toBeLessThanOrEqual(200);
    expect(refreshKey('a', 'x')).not.toBe(refreshKey('b', 'x'));
  });
});
