// Shared by the verify tests: a real mock on port 0, optionally behind a drifting proxy
// (a fetch-style wrapper around the service's handler), and a wait that moves the mock's
// clock instead of sleeping.
import {
  type MockConfig,
  type MockServer,
  type MockService,
  startMockServer,
} from '@profile-articles/mock-server';
import { afterEach } from 'vitest';
import { runVerifyCommand } from '../../src/verify/command.js';
import type { VerifyReport } from '../../src/verify/report.js';

export const KEY = 'key-verify-secret-1';

export const VERIFY_CONFIG: MockConfig = {
  accounts: [{ id: 'acme', apiKeys: [KEY], credits: 1000, pricing: { credit_price_cents: 5 } }],
  jobs: { queuedMs: 1000, runningMs: 4000 },
  payments: 'enabled',
};

/** Rewrites one answer of the real mock, given the request that produced it. */
export type Drift = (
  request: Request,
  response: Response,
  service: MockService,
) => Promise<Response> | Response;

const servers: MockServer[] = [];
afterEach(async () => {
  // A test may have closed its server already (the unreachable-origin test does).
  await Promise.all(servers.splice(0).map((server) => server.close().catch(() => undefined)));
});

export async function startMock(drift?: Drift, config: MockConfig = VERIFY_CONFIG): Promise<MockServer> {
  const { createMockService } = await import('@profile-articles/mock-server');
  const service = createMockService(config);
  const proxied: MockService = drift
    ? {
        ...service,
        handle: async (request) => drift(request, await service.handle(request.clone()), service),
      }
    : service;
  const server = await startMockServer({ port: 0, service: proxied });
  servers.push(server);
  return server;
}

/** The injected wait: the mock's clock moves by the time verify would have slept. */
export function clockWait(server: MockServer) {
  return async (ms: number) => {
    const answer = await fetch(`${server.url}/_mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms }),
    });
    if (answer.status !== 200) throw new Error(`clock advance answered ${answer.status}`);
  };
}

/** Makes an article exist for `profileId` before verify runs (a generation, finished). */
export async function seedArticle(server: MockServer, profileId: string): Promise<void> {
  const started = await fetch(`${server.url}/api/v1/articles`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      'idempotency-key': `seed-${profileId}`,
    },
    body: JSON.stringify({ profile_id: profileId }),
  });
  if (started.status !== 202) throw new Error(`seed answered ${started.status}`);
  await clockWait(server)(10_000);
}

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
  report: VerifyReport;
}

/** Runs `verify --json ARGS` in-process against `server`, key and origin from the environment. */
export async function verifyJson(
  server: MockServer,
  args: string[],
  origin = server.url,
): Promise<CommandRun> {
  let stdout = '';
  let stderr = '';
  const code = await runVerifyCommand(
    ['--json', ...args],
    { PROFILE_ARTICLES_API_KEY: KEY, PROFILE_ARTICLES_BASE_URL: origin },
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
    { wait: clockWait(server) },
  );
  return { code, stdout, stderr, report: JSON.parse(stdout) as VerifyReport };
}

export function failedChecks(report: VerifyReport) {
  return report.checks.filter((check) => check.status === 'failed');
}
