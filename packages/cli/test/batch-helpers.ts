// Shared by the batch tests: a mock over HTTP that counts every 429 it answers (the journal is
// capped, this count is not), can hold generate answers back, and a ledger read per profile.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMockService,
  type MockConfig,
  type MockServer,
  type MockService,
  startMockServer,
} from '@profile-articles/mock-server';
import { BIN } from './helpers.js';

export interface BatchMock {
  server: MockServer;
  service: MockService;
  refused: () => number;
  /** While set, each generate or update answer waits for it after taking effect. */
  holdAnswers: (hold: ((request: Request) => Promise<void>) | undefined) => void;
}

export async function startBatchMock(config: MockConfig): Promise<BatchMock> {
  const service = createMockService(config);
  let refused = 0;
  let hold: ((request: Request) => Promise<void>) | undefined;
  const counting: MockService = {
    ...service,
    async handle(request) {
      const isStart = request.method === 'POST' && request.url.includes('/api/v1/articles');
      const copy = isStart ? request.clone() : request;
      const response = await service.handle(request);
      if (response.status === 429) refused++;
      if (isStart && hold) await hold(copy);
      return response;
    },
  };
  const server = await startMockServer({ port: 0, service: counting });
  return { server, service, refused: () => refused, holdAnswers: (next) => (hold = next) };
}

export interface LedgerView {
  /** Net credits taken per profile (reservations less refunds, plus reads). */
  net: Map<string, number>;
  /** Reservations per profile that were not refunded. */
  kept: Map<string, number>;
  spent: number;
}

export function ledgerFor(service: MockService, accountId: string): LedgerView {
  const state = service.state();
  const net = new Map<string, number>();
  const kept = new Map<string, number>();
  let spent = 0;
  for (const entry of state.ledger.entries()) {
    if (entry.accountId !== accountId || entry.reason === 'purchase') continue;
    const profile =
      entry.reason === 'refund'
        ? (state.jobs.get(entry.ref)?.job.profile_id ?? entry.ref)
        : entry.ref.replace(/^(generate|update):/, '');
    net.set(profile, (net.get(profile) ?? 0) - entry.delta);
    if (entry.reason === 'reserve') kept.set(profile, (kept.get(profile) ?? 0) + 1);
    if (entry.reason === 'refund') kept.set(profile, (kept.get(profile) ?? 0) - 1);
    spent -= entry.delta;
  }
  return { net, kept, spent };
}

export interface Spawned {
  code: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
  kill: () => void;
  /** JSON events seen so far on stdout. */
  events: () => Array<Record<string, any>>;
}

export function spawnBatch(args: string[], env: Record<string, string>, cwd: string): Spawned {
  const child = spawn(process.execPath, [BIN, 'batch', ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return {
    code,
    stdout: () => stdout,
    stderr: () => stderr,
    kill: () => child.kill('SIGKILL'),
    events: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line)),
  };
}

export function workDir(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'pa-batch-'));
  writeFileSync(join(dir, 'list.txt'), `${lines.join('\n')}\n`);
  return dir;
}

export function envFor(mock: BatchMock, apiKey: string, dir: string, pollSeconds = '0.05') {
  return {
    PROFILE_ARTICLES_API_KEY: apiKey,
    PROFILE_ARTICLES_BASE_URL: mock.server.url,
    PROFILE_ARTICLES_POLL_INTERVAL: pollSeconds,
    PROFILE_ARTICLES_CONFIG_DIR: join(dir, 'config'),
  };
}
