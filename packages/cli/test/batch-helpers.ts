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
  /** 429s the rate limit answered this account, from `GET /_mock/stats` (the journal is capped). */
  refused: (accountId: string) => Promise<number>;
  /** While set, each generate or update answer waits for it after taking effect. */
  holdAnswers: (hold: ((request: Request) => Promise<void>) | undefined) => void;
  control: (method: string, path: string, body?: unknown) => Promise<any>;
}

export async function startBatchMock(config: MockConfig): Promise<BatchMock> {
  const service = createMockService(config);
  let hold: ((request: Request) => Promise<void>) | undefined;
  const holding: MockService = {
    ...service,
    async handle(request) {
      const isStart = request.method === 'POST' && request.url.includes('/api/v1/articles');
      const response = await service.handle(request);
      if (isStart && hold) await hold(request);
      return response;
    },
  };
  const server = await startMockServer({ port: 0, service: holding });
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/_mock/${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    return response.status === 204 ? undefined : response.json();
  };
  return {
    server,
    service,
    control,
    refused: async (accountId) => (await control('GET', 'stats')).accounts[accountId]?.rateLimited ?? 0,
    holdAnswers: (next) => {
      hold = next;
    },
  };
}

export interface LedgerView {
  /** Net credits taken per profile: reservations less refunds, plus reads. */
  net: Map<string, number>;
  /** Reservations per profile that were not refunded. */
  kept: Map<string, number>;
  /** What the account spent in all: reserved − refunded + reads. */
  spent: number;
}

interface LedgerBody {
  accounts: Array<{ accountId: string; reserved: number; refunded: number; readCharges: number }>;
  entries: Array<{ accountId: string; kind: string; delta: number; profileId: string | null }>;
  total: number;
  capacity: number;
}

/** The account's movements per profile, from `GET /_mock/ledger`. */
export async function ledgerFor(mock: BatchMock, accountId: string): Promise<LedgerView> {
  const body = (await mock.control('GET', 'ledger')) as LedgerBody;
  if (body.total > body.capacity) throw new Error('the ledger dropped entries: size the test down');
  const net = new Map<string, number>();
  const kept = new Map<string, number>();
  for (const entry of body.entries) {
    if (entry.accountId !== accountId || !entry.profileId) continue;
    const profile = entry.profileId;
    net.set(profile, (net.get(profile) ?? 0) - entry.delta);
    if (entry.kind === 'reservation') kept.set(profile, (kept.get(profile) ?? 0) + 1);
    if (entry.kind === 'refund') kept.set(profile, (kept.get(profile) ?? 0) - 1);
  }
  const totals = body.accounts.find((account) => account.accountId === accountId);
  const spent = totals ? totals.reserved - totals.refunded + totals.readCharges : 0;
  return { net, kept, spent };
}

export interface Spawned {
  code: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
  kill: () => void;
  signal: (name: NodeJS.Signals) => void;
  /** JSON events seen so far on stdout. */
  events: () => Array<Record<string, any>>;
  /** Resolves once an event of this name is on stdout; rejects if the run ends first. */
  until: (event: string) => Promise<void>;
  /** Resolves once stdout holds this text (for runs without --json); rejects if the run ends first. */
  untilText: (text: string) => Promise<void>;
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
  const events = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  const seen = (event: string) => events().some((e) => e.event === event);
  const waitFor = (found: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!found()) return;
        child.stdout.off('data', check);
        resolve();
      };
      child.stdout.on('data', check);
      void code.then(() => (found() ? resolve() : reject(new Error(`the run ended with no ${what}`))));
      check();
    });
  return {
    code,
    stdout: () => stdout,
    stderr: () => stderr,
    kill: () => child.kill('SIGKILL'),
    signal: (name) => child.kill(name),
    events,
    until: (event) => waitFor(() => seen(event), `${event} event`),
    untilText: (text) => waitFor(() => stdout.includes(text), JSON.stringify(text)),
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
