// A server that echoes the caller's key back, in every spelling keyEchoes knows (base64 and
// base64url at each alignment inside a longer token, hex in either case, split by escape
// sequences): nothing `credits` prints, as text, with --json or with --verbose, holds the key.
import { keyEchoes, keyLeaks } from '@profile-articles/test-utils/key-echoes';
import { rewritingProxy } from '@profile-articles/test-utils/rewriting-proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, useCliMock } from './helpers.js';

const h = useCliMock();
let echo: string | undefined;
let status: 'ok' | 'refused' | 'flaky' = 'ok';
let proxy: Awaited<ReturnType<typeof rewritingProxy>>;
let flakes = 0;

beforeAll(async () => {
  proxy = await rewritingProxy(h.server.url, (answer, asked) => {
    if (echo === undefined || !asked.path.startsWith('/api/v1/credits')) return undefined;
    // Echoes what it was sent, as a careless server would: the key is the one in the request.
    const told = echo.replaceAll(KEYS.main, asked.apiKey ?? '');
    if (status === 'refused') return { ...answer, status: 401, body: { detail: `Unknown key ${told}` } };
    if (status === 'flaky' && flakes++ % 2 === 0) {
      return { status: 503, headers: { 'retry-after': '0' }, body: { detail: `Overloaded for ${told}` } };
    }
    const body = answer.body as { pricing: object };
    return { ...answer, body: { ...body, note: told, pricing: { ...body.pricing, [told]: told } } };
  });
});
afterAll(() => proxy.close());

const credits = (args: string[]) =>
  h.run(['credits', ...args], { env: { PROFILE_ARTICLES_BASE_URL: proxy.url } });

describe.each(Object.entries(keyEchoes(KEYS.main)))('a server echoing the key as %s', (_name, spelling) => {
  it('credits, credits --json and --verbose print it in no spelling', async () => {
    echo = spelling;
    try {
      status = 'ok';
      const plain = await credits([]);
      const json = await credits(['--json']);
      expect(plain.code).toBe(0);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout).note).toContain('[redacted]');
      status = 'refused';
      const refused = await credits(['--verbose']);
      const refusedJson = await credits(['--json', '--verbose']);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain('[redacted]');
      status = 'flaky';
      const retried = await credits(['--verbose', '--json']);
      expect(retried.stderr).toMatch(/"status":503/);
      for (const run of [plain, json, refused, refusedJson, retried]) {
        expect(keyLeaks(run.stdout, KEYS.main)).toEqual([]);
        expect(keyLeaks(run.stderr, KEYS.main)).toEqual([]);
      }
    } finally {
      echo = undefined;
    }
  });
});
