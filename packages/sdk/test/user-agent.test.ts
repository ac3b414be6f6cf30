// The User-Agent every request sends, as the real mock receives it over HTTP, over both
// transports: the SDK and its version (package.json's), then the runtime and its version.
import { readFileSync } from 'node:fs';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { watchServerRequests } from '@profile-articles/test-utils/http-requests';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { USER_AGENT_PREFIX } from '../src/internal.js';
import { type ClientOptions, NotFoundError, ProfileArticles } from '../src/node.js';
import { TRANSPORTS } from './scripted-client.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    config: { accounts: [{ id: 'a', apiKeys: ['ua-key-0001'], credits: 1000 }] },
  });
});
afterAll(() => mock.close());
beforeEach(() => mock.service.reset());

/** The User-Agent of every request the mock receives while `work` runs. */
async function agentsDuring(work: () => Promise<unknown>): Promise<Array<string | undefined>> {
  const seen: Array<string | undefined> = [];
  const stop = watchServerRequests(mock.port, ({ request }) => seen.push(request.headers['user-agent']));
  try {
    await work();
  } finally {
    stop();
  }
  return seen;
}

describe.each(TRANSPORTS)('User-Agent over $name', ({ options }) => {
  const client = (more: ClientOptions = {}) =>
    new ProfileArticles({ ...options, apiKey: 'ua-key-0001', baseUrl: mock.url, pollIntervalMs: 1, ...more });

  it('names the SDK and Node, with their versions, on every request', async () => {
    const sdk = client();
    const agents = await agentsDuring(async () => {
      await sdk.credits.balance();
      await rejectionOf(sdk.articles.read('nobody'), NotFoundError);
      const job = await sdk.articles.generate('ada-lovelace');
      await sdk.jobs.get('job_id' in job ? job.job_id : '');
    });
    expect(agents).toHaveLength(4);
    expect(new Set(agents)).toEqual(
      new Set([`profile-articles-sdk/${version} node/${process.versions.node}`]),
    );
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('puts the CLI’s product first when it names one', async () => {
    const sdk = client({ [USER_AGENT_PREFIX]: 'profile-articles-cli/9.8.7' } as ClientOptions);
    const agents = await agentsDuring(() => sdk.credits.balance());
    expect(agents).toEqual([
      `profile-articles-cli/9.8.7 profile-articles-sdk/${version} node/${process.versions.node}`,
    ]);
  });
});
