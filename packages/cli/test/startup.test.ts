import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from './helpers.js';

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
];

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
  });

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
