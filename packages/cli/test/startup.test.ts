import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startMockServer } from '@profile-articles/mock-server';
import { describe, expect, it } from 'vitest';
import { BIN, CLI_CONFIG, KEYS } from './helpers.js';
import { keyringMissing, startKeyringSession } from './keyring-session.js';

const TRACER = fileURLToPath(new URL('./fixtures/trace-imports.mjs', import.meta.url));

function loadedModules(
  args: string[],
  env: Record<string, string> = {},
): { code: number | null; modules: string[] } {
  const file = join(mkdtempSync(join(tmpdir(), 'pa-trace-')), 'trace.txt');
  const result = spawnSync(process.execPath, ['--import', TRACER, BIN, ...args], {
    env: { ...process.env, ...env, TRACE_FILE: file },
  });
  return { code: result.status, modules: readFileSync(file, 'utf8').trim().split('\n') };
}

/**
 * The same, without blocking this process: for a run against a mock server in this process,
 * which a synchronous spawn would keep from answering.
 */
function loadedModulesWhile(
  args: string[],
  env: Record<string, string> = {},
  input = '',
): Promise<{ code: number | null; modules: string[] }> {
  const file = join(mkdtempSync(join(tmpdir(), 'pa-trace-')), 'trace.txt');
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', TRACER, BIN, ...args],
      { env: { ...process.env, ...env, TRACE_FILE: file } },
      (error) => {
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          modules: readFileSync(file, 'utf8').trim().split('\n'),
        });
      },
    );
    child.stdin?.end(input);
  });
}

const HEAVY = [
  /\/sdk\//,
  /\/zod\//,
  /\/ora\//,
  /\/conf\//,
  /\/mock-server\//,
  /\/msw\//,
  /markdown/,
  /pager/,
  /http-trace/,
  /\/jq-web\//,
  /\/@napi-rs\/keyring/,
  /\/keyring-[\w]+\.js$/,
];

/** The keyring's modules: the native addon's package and the CLI's chunk that imports it. */
const keyringModule = (m: string) => /\/@napi-rs\/keyring|\/keyring-[\w]+\.js$/.test(m);

/** A settings folder holding one profile, its key in the file or (apiKeyIn) in the keyring. */
function settingsWith(profile: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pa-trace-config-'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), {
    mode: 0o600,
  });
  return dir;
}

describe('start-up', () => {
  it.each([[['--help']], [['--version']], [['frobnicate']], [['read']], [['generate', '--help']]])(
    '%j loads neither the SDK, zod, ora, the Markdown renderer nor the pager',
    (args) => {
      const { modules } = loadedModules(args);
      for (const heavy of HEAVY) expect(modules.filter((m) => heavy.test(m))).toEqual([]);
      // Stronger: no module beyond the one file dist/bin.cjs (commander is bundled into it),
      // so Node starts it with one read and no ESM loader (issue 11, goal 5).
      expect(modules).toEqual([pathToFileURL(BIN).href]);
    },
  );

  it.each(['environment', 'exit-codes', 'formatting', 'bulk', 'mock'])(
    '`help %s` loads its guide without the SDK, zod, ora or the mock server',
    (topic) => {
      const { code, modules } = loadedModules(['help', topic]);
      expect(code).toBe(0);
      for (const heavy of HEAVY) expect(modules.filter((m) => heavy.test(m))).toEqual([]);
      // In a pipe, as here, only the guide's own module (and the small chunk of the CLI's
      // errors): no Context, no Output, no renderer, no pager.
      expect(modules.filter((m) => /\/(context|output|style|terminal-io)\b/.test(m))).toEqual([]);
      expect(modules.slice(0, 2)).toEqual([
        pathToFileURL(BIN).href,
        expect.stringMatching(/\/dist\/commands\/help\.js$/),
      ]);
      expect(modules.length).toBeLessThanOrEqual(4);
    },
  );

  it('loads the SDK only when a command needs it', () => {
    const { modules } = loadedModules([
      'credits',
      '--base-url',
      'http://127.0.0.1:9',
      '--api-key',
      'test-key',
    ]);
    expect(modules.some((m) => /\/sdk\//.test(m))).toBe(true);
    expect(modules.filter((m) => /\/ora\/|\/mock-server\/|markdown|pager/.test(m))).toEqual([]);
    expect(modules.filter(keyringModule)).toEqual([]);
  });

  it('loads the keyring only for a profile whose key is kept there', async () => {
    const mock = await startMockServer({ port: 0, config: CLI_CONFIG });
    try {
      // A key in the file (as an earlier release stored it): no keyring, for any command.
      const inFile = { PROFILE_ARTICLES_CONFIG_DIR: settingsWith({ apiKey: KEYS.main, baseUrl: mock.url }) };
      for (const args of [
        ['credits', '--json'],
        ['status', '--json'],
        ['config', 'list'],
      ]) {
        const { code, modules } = await loadedModulesWhile(args, inFile);
        expect(code).toBe(0);
        expect(modules.filter(keyringModule)).toEqual([]);
      }
      // A key in the keyring: read from it (a failure to, here without a bus, is exit 4).
      const inKeyring = {
        PROFILE_ARTICLES_CONFIG_DIR: settingsWith({ apiKeyIn: 'keyring', baseUrl: mock.url }),
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      };
      const { code, modules } = await loadedModulesWhile(['credits', '--json'], inKeyring);
      expect(code).toBe(4);
      expect(modules.some((m) => /\/@napi-rs\/keyring/.test(m))).toBe(true);
    } finally {
      await mock.close();
    }
  });

  it.skipIf(keyringMissing)(
    `credits --json with the key in a real keyring reads it and answers${keyringMissing ? ` (skipped: ${keyringMissing})` : ''}`,
    async () => {
      const mock = await startMockServer({ port: 0, config: CLI_CONFIG });
      const session = await startKeyringSession();
      try {
        const dir = mkdtempSync(join(tmpdir(), 'pa-trace-config-'));
        const env = { PROFILE_ARTICLES_CONFIG_DIR: dir, ...session.env };
        const login = await loadedModulesWhile(['login', '--base-url', mock.url], env, KEYS.main);
        expect(login.code).toBe(0);
        expect(login.modules.some((m) => /\/@napi-rs\/keyring/.test(m))).toBe(true);
        const { code, modules } = await loadedModulesWhile(['credits', '--json'], env);
        expect(code).toBe(0);
        expect(modules.some((m) => /\/@napi-rs\/keyring/.test(m))).toBe(true);
      } finally {
        session.stop();
        await mock.close();
      }
    },
  );

  it('loads jq only when --jq is given', () => {
    // `config path` prints a JSON value without a request: the filter runs, or not, at once.
    const env = { PROFILE_ARTICLES_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'pa-trace-config-')) };
    const jq = (m: string) => /\/jq-web\/|\/jq\.js$/.test(m);
    expect(loadedModules(['config', 'path', '--json'], env).modules.filter(jq)).toEqual([]);
    const filtered = loadedModules(['config', 'path', '--jq', '.path'], env);
    expect(filtered.code).toBe(0);
    expect(filtered.modules.some((m) => /\/jq-web\//.test(m))).toBe(true);
  });

  it('from a clone, `pnpm cli <args>` runs the built CLI', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const result = spawnSync('pnpm', ['-s', 'cli', '--version'], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
