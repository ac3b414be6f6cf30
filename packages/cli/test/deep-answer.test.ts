// A hostile server's read answer within the SDK's 10 MiB cap, nested 4,000,000 levels deep (an
// attack trial: `read --json` crashed with "Invalid string length … This is a bug" at 2.9 GiB,
// after the read was charged; the earlier fix held to 20,000 levels). `read --json`, `read` and
// `api` either print it or exit 1 saying the read was charged, never a crash, and stay under
// 1 GiB of peak memory (measured by /usr/bin/time -v around the built bin).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isFor } from '@profile-articles/test-utils/lying-mock';
import { describe, expect, it } from 'vitest';
import { BIN, KEYS, useCliMock } from './helpers.js';

const DEPTH = 4_000_000;
let deep: 'array' | 'object' | 'content' | undefined;

const h = useCliMock(
  {
    accounts: [
      { id: 'main', apiKeys: [KEYS.main], credits: 1_000_000, pricing: { requests_per_minute: 100_000 } },
    ],
    jobs: { queuedMs: 0, runningMs: 0 },
  },
  async (request, response) => {
    if (!deep || !isFor(request, 'readArticle') || response.status !== 200) return response;
    const answer = (await response.json()) as { article: Record<string, unknown> };
    // 2 bytes a level: `[` and `]`, or `{"a":` … `}` (6 bytes) for an object at a quarter of the depth.
    const nested =
      deep !== 'object'
        ? `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`
        : `${'{"a":'.repeat(DEPTH / 4)}1${'}'.repeat(DEPTH / 4)}`;
    // In the infobox (any JSON, which the interface allows), or where a string belongs (which
    // the SDK refuses as not matching the interface).
    const { article } = answer;
    const shaped = {
      ...answer,
      article: deep === 'content' ? { ...article, content: '@@' } : { ...article, infobox: { born: '@@' } },
    };
    const text = JSON.stringify(shaped).replace('"@@"', nested);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(text, { status: 200, headers });
  },
);

interface Measured {
  code: number | null;
  stdout: number;
  stderr: string;
  peakKiB: number;
  seconds: number;
}

/** The built bin under /usr/bin/time -v: its exit code, what it printed, its peak RSS. */
function measured(args: string[]): Promise<Measured> {
  const child = spawn('/usr/bin/time', ['-v', process.execPath, BIN, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CI: 'true',
      PROFILE_ARTICLES_CONFIG_DIR: h.configDir,
      PROFILE_ARTICLES_API_KEY: KEYS.main,
      PROFILE_ARTICLES_BASE_URL: h.server.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.length;
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(stderr);
      const seconds = wall
        ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3])
        : Number.NaN;
      const own = stderr.split(/\n\s*Command (?:being timed|exited)/)[0] ?? '';
      resolve({ code, stdout, stderr: own, peakKiB: Number(peak?.[1]), seconds });
    }),
  );
}

describe.skipIf(!existsSync('/usr/bin/time'))('an answer nested 4,000,000 deep (needs /usr/bin/time)', () => {
  // Measured here: at most about 520 MB and 11 s on a busy 2-core machine (the limits are
  // 1 GiB and 30 s; wall-clock time is not asserted, a loaded runner stretches it).
  it.each([
    ['read --json', ['read', 'ada-lovelace', '--json'], 'array'],
    ['read', ['read', 'ada-lovelace'], 'array'],
    ['api GET', ['api', 'GET', '/articles/ada-lovelace'], 'array'],
    ['read --json (objects)', ['read', 'ada-lovelace', '--json'], 'object'],
    ['read --json (in content)', ['read', 'ada-lovelace', '--json'], 'content'],
    ['read (in content)', ['read', 'ada-lovelace'], 'content'],
    ['api GET (in content)', ['api', 'GET', '/articles/ada-lovelace'], 'content'],
    ['api GET --jq', ['api', 'GET', '/articles/ada-lovelace', '--jq', '.article.infobox'], 'array'],
    ['read --json --jq', ['read', 'ada-lovelace', '--json', '--jq', '.article.title'], 'array'],
  ] as const)(
    '%s: printed, or exit 1 saying the read was charged; under 1 GiB',
    async (_name, args, shape) => {
      // The mock is reset before each test: the article is made again, then read.
      const made = await h.run(['generate', 'ada-lovelace']);
      expect(made.code, made.stderr).toBe(0);
      deep = shape;
      try {
        const run = await measured([...args]);
        expect(run.stderr).not.toMatch(/This is a bug|Invalid string length|\n\s+at /);
        if (run.code === 0)
          expect(run.stdout).toBeGreaterThan(args[1] === 'ada-lovelace' && args.length === 2 ? 0 : DEPTH);
        else {
          expect(run.code).toBe(1);
          expect(run.stderr, run.stderr).toMatch(/charged/);
        }
        expect(run.peakKiB).toBeLessThan(1024 * 1024);
      } finally {
        deep = undefined;
      }
    },
    180_000,
  );
});
