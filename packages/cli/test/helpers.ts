// Runs the built bin as a user would, against a real mock server on a free port.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type MockConfig, type MockServer, startMockServer } from '@profile-articles/mock-server';
import { startDriftingMock } from '@profile-articles/test-utils/drifting-mock';
import type { Drift } from '@profile-articles/test-utils/lying-mock';
import { afterAll, beforeAll, beforeEach, onTestFinished } from 'vitest';
import { run } from '../src/main.js';

export const BIN = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));

/** Every key in the test config is unique text, so a leak shows up in a plain search. */
export const KEYS = {
  main: 'pa_test_MAINKEY_0123456789',
  poor: 'pa_test_POORKEY_0123456789',
  limited: 'pa_test_LIMITKEY_012345678',
};

/** The fields of a --json error, in their order (PRODUCT.md: request_id after status). */
export const ERROR_FIELDS = [
  'type',
  'status',
  'request_id',
  'message',
  'detail',
  'hint',
  'attempts',
  'idempotency_key',
];

export const CLI_CONFIG: MockConfig = {
  accounts: [
    { id: 'main', apiKeys: [KEYS.main], credits: 1000 },
    { id: 'poor', apiKeys: [KEYS.poor], credits: 50 },
    { id: 'limited', apiKeys: [KEYS.limited], credits: 1000, pricing: { requests_per_minute: 2 } },
  ],
  jobs: { queuedMs: 100, runningMs: 200 },
};

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Everything the CLI printed in this test file, to search for leaked keys at the end. */
export const transcript: string[] = [];

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** Another copy of the bin (an unpacked tarball's); the built one by default. */
  bin?: string;
  /** Called once stdout or stderr contains this text. */
  onOutput?: { match: RegExp; run: (child: ReturnType<typeof spawn>, match: RegExpExecArray) => void };
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CI: 'true',
    ...options.env,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
    env: env as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let triggered = false;
  const check = () => {
    const match = options.onOutput?.match.exec(stdout + stderr);
    if (options.onOutput && match && !triggered) {
      triggered = true;
      options.onOutput.run(child, match);
    }
  };
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    check();
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    check();
  });
  child.stdin.end(options.input ?? '');
  // A run that hangs is stopped when its test ends (by the test's timeout), not by a clock of
  // its own: on a loaded machine a healthy run can outlast any fixed limit.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      transcript.push(stdout, stderr);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  /** What stdin holds: text (then it ends), or a stream the test controls. */
  input?: string | NodeJS.ReadableStream;
  /** Called after every write, with all output so far. */
  onOutput?: (stdout: string, stderr: string) => void;
  /** Both streams say they are a terminal (100 columns), so the CLI styles and renders for one. */
  terminal?: boolean;
  /** With `terminal`: the width the terminal reports instead of 100. */
  columns?: number;
}

/**
 * Runs the CLI in this process through `run(argv, io)`: no build, no spawn. For everything
 * that involves no terminal and no signal; those stay in spawned and tmux tests.
 */
export async function runInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const env: Record<string, string | undefined> = { CI: 'true', ...options.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const stdin =
    typeof options.input === 'object' ? options.input : Readable.from(options.input ? [options.input] : []);
  const terminal = options.terminal ? { isTTY: true, columns: options.columns ?? 100, rows: 40 } : {};
  const code = await run(['node', 'profile-articles', ...args], {
    stdout: {
      ...terminal,
      write: (chunk: string) => {
        stdout += chunk;
        options.onOutput?.(stdout, stderr);
      },
    },
    stderr: {
      ...terminal,
      write: (chunk: string) => {
        stderr += chunk;
        options.onOutput?.(stdout, stderr);
      },
    },
    stdin: stdin as never,
    env,
  });
  transcript.push(stdout, stderr);
  return { code, stdout, stderr };
}

export interface CliHarness {
  server: MockServer;
  configDir: string;
  /** Spawns the built bin with the main key in the environment, the mock's URL and a fast poll. */
  cli(args: string[], options?: RunOptions): Promise<CliResult>;
  /** The same, in-process (`run(argv, io)`): fast, no build needed. */
  run(args: string[], options?: InProcessOptions): Promise<CliResult>;
}

/** A mock per test file, reset per test; with `drift`, every answer passes through it (drifting-mock.ts). */
export function useCliMock(config: MockConfig = CLI_CONFIG, drift?: Drift): CliHarness {
  const harness = {} as CliHarness;
  beforeAll(async () => {
    harness.server = drift
      ? await startDriftingMock(drift, config)
      : await startMockServer({ port: 0, config });
  });
  afterAll(() => harness.server.close());
  beforeEach(() => {
    harness.server.service.reset();
    harness.configDir = mkdtempSync(join(tmpdir(), 'pa-cli-'));
  });
  const envFor = (extra: Record<string, string | undefined> = {}) => ({
    PROFILE_ARTICLES_API_KEY: KEYS.main,
    PROFILE_ARTICLES_BASE_URL: harness.server.url,
    PROFILE_ARTICLES_POLL_INTERVAL: '0.05',
    PROFILE_ARTICLES_CONFIG_DIR: harness.configDir,
    ...extra,
  });
  harness.cli = (args, options = {}) => runCli(args, { ...options, env: envFor(options.env) });
  harness.run = (args, options = {}) => runInProcess(args, { ...options, env: envFor(options.env) });
  return harness;
}

/** The single JSON value on stdout; throws if stdout holds anything else. */
export function onlyJson(stdout: string): any {
  return JSON.parse(stdout);
}
