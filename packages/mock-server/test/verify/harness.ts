// Shared by the verify tests: a real mock on port 0, optionally behind a drifting proxy
// (a fetch-style wrapper around the service's handler; the lying behaviours are in
// @profile-articles/test-utils/lying-mock), and a wait that moves the mock's clock instead
// of sleeping.
import {
  type MockConfig,
  type MockServer,
  type MockService,
  startMockServer,
} from '@profile-articles/mock-server';
import type { Drift } from '@profile-articles/test-utils/lying-mock';
import { afterEach } from 'vitest';
import { runVerifyCommand } from '../../src/verify/command.js';
import type { VerifyReport } from '../../src/verify/report.js';
import type { VerifyDeps } from '../../src/verify/runner.js';

export type { Drift };

export const KEY = 'key-verify-secret-1';

export const VERIFY_CONFIG: MockConfig = {
  accounts: [{ id: 'acme', apiKeys: [KEY], credits: 1000, pricing: { credit_price_cents: 5 } }],
  jobs: { queuedMs: 1000, runningMs: 4000 },
  payments: 'enabled',
};

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

interface RunOptions {
  /** The origin verify is given; the server's own URL by default. */
  origin?: string;
  /** verify's dependencies; the wait moves the mock's clock unless given. */
  deps?: VerifyDeps;
  /** More environment, beside the key and the origin. */
  env?: NodeJS.ProcessEnv;
}

/** Runs `verify --json ARGS` in-process against `server`, key and origin from the environment. */
export function verifyJson(
  server: MockServer,
  args: string[],
  options: RunOptions = {},
): Promise<CommandRun> {
  const deps = { wait: clockWait(server), ...options.deps };
  return verifyOrigin(options.origin ?? server.url, args, deps, options.env);
}

/** Runs `verify --json ARGS` in-process against any origin (a scripted server's), with `deps`. */
export async function verifyOrigin(
  origin: string,
  args: string[],
  deps: VerifyDeps,
  env: NodeJS.ProcessEnv = {},
): Promise<CommandRun> {
  const run = await verifyAsWritten(origin, ['--json', ...args], deps, env);
  return { ...run, report: JSON.parse(run.stdout) as VerifyReport };
}

/** Runs `verify ARGS` in-process as given (a table unless ARGS holds --json), with the mock's clock as verifyJson. */
export function verifyText(server: MockServer, args: string[]): Promise<Omit<CommandRun, 'report'>> {
  return verifyAsWritten(server.url, args, { wait: clockWait(server) });
}

async function verifyAsWritten(
  origin: string,
  args: string[],
  deps: VerifyDeps,
  env: NodeJS.ProcessEnv = {},
): Promise<Omit<CommandRun, 'report'>> {
  let stdout = '';
  let stderr = '';
  const code = await runVerifyCommand(
    args,
    { ...env, PROFILE_ARTICLES_API_KEY: KEY, PROFILE_ARTICLES_BASE_URL: origin },
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
    deps,
  );
  return { code, stdout, stderr };
}

/** The check with `id`, failing the test when the run has none. */
export function checkOf(report: VerifyReport, id: string) {
  const check = report.checks.find((candidate) => candidate.id === id);
  if (!check) throw new Error(`no check ${id} in ${report.checks.map((c) => c.id).join(', ')}`);
  return check;
}

export function failedChecks(report: VerifyReport) {
  return report.checks.filter((check) => check.status === 'failed');
}
