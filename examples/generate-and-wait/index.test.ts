// Runs the example as a user would, against the mock server over HTTP.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { afterAll, beforeAll, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./index.mjs', import.meta.url));
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    config: {
      accounts: [
        { id: 'rich', apiKeys: ['rich-key'], credits: 1000 },
        { id: 'poor', apiKeys: ['poor-key'], credits: 30 },
      ],
      jobs: { queuedMs: 100, runningMs: 100 },
    },
  });
});
afterAll(() => mock.close());

async function run(profileId: string, apiKey = 'rich-key') {
  const env = {
    ...process.env,
    PROFILE_ARTICLES_API_KEY: apiKey,
    PROFILE_ARTICLES_BASE_URL: mock.url,
    POLL_INTERVAL_MS: '50',
  };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, profileId], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

it('generates, shows the progress of the job, and prints the article', async () => {
  const { code, stdout, stderr } = await run('ada-lovelace');
  expect(code).toBe(0);
  expect(stderr).toMatch(/job [0-9a-f-]{36}: queued \(100 credits reserved\)/);
  // Reserved while it runs, charged once it succeeded (issue 26: it said "reserved" to the end).
  expect(stderr).toMatch(/: succeeded \(100 credits charged\)$/m);
  expect(stderr).not.toMatch(/succeeded.*reserved/);
  expect(stdout).toMatch(/^Ada Lovelace \(version 1\)\n {2}\[1\] /);
  expect(mock.service.balance('rich')).toBe(900);
});

it('explains a failed job, whose credits were refunded, and exits 3', async () => {
  const before = mock.service.balance('rich');
  const { code, stderr } = await run('fail-someone');
  expect(code).toBe(3);
  expect(stderr).toMatch(/The job ended failed: .+ Its credits were refunded\./);
  expect(stderr).toMatch(/: failed \(refunded\)$/m);
  expect(mock.service.balance('rich')).toBe(before);
});

it('explains a short balance and exits 5', async () => {
  const { code, stderr } = await run('grace-hopper', 'poor-key');
  expect(code).toBe(5);
  expect(stderr).toContain('Not enough credits: 30 left, a generation costs 100.');
});

it('refuses to run without a profile id', async () => {
  const { code, stderr } = await run('');
  expect(code).toBe(2);
  expect(stderr).toContain('usage:');
});
