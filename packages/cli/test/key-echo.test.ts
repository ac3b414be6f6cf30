// A server that echoes the caller's key back, in every spelling keyEchoes knows (base64 and
// base64url at each alignment inside a longer token, hex in either case, split by escape
// sequences): nothing `credits` prints, as text, with --json or with --verbose, holds the key.

import type { MockServer } from '@profile-articles/mock-server';
import { startDriftingMock } from '@profile-articles/test-utils/drifting-mock';
import { keyEchoes, keyLeaks } from '@profile-articles/test-utils/key-echoes';
import { isFor } from '@profile-articles/test-utils/lying-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_CONFIG, KEYS, useCliMock } from './helpers.js';

const h = useCliMock();
let echo: string | undefined;
let status: 'ok' | 'refused' | 'flaky' = 'ok';
let mock: MockServer;
let flakes = 0;

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

beforeAll(async () => {
  mock = await startDriftingMock(async (request, response) => {
    if (echo === undefined || !isFor(request, 'getBalance')) return response;
    // Echoes what it was sent, as a careless server would: the key is the one in the request.
    const sent = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
    const told = echo.replaceAll(KEYS.main, sent);
    if (status === 'refused') return answer(401, { detail: `Unknown key ${told}` });
    if (status === 'flaky' && flakes++ % 2 === 0) {
      return answer(503, { detail: `Overloaded for ${told}` }, { 'retry-after': '0' });
    }
    const body = (await response.json()) as { pricing: object };
    return answer(200, { ...body, note: told, pricing: { ...body.pricing, [told]: told } });
  }, config);
});
afterAll(() => mock.close());

// A rate limit that the ~6 requests of each of the many spellings never reach (the default 60 a minute would).
const config = {
  ...CLI_CONFIG,
  accounts: (CLI_CONFIG.accounts ?? []).map((account) =>
    account.id === 'main' ? { ...account, pricing: { requests_per_minute: 100_000 } } : account,
  ),
};

const credits = (args: string[]) =>
  h.run(['credits', ...args], { env: { PROFILE_ARTICLES_BASE_URL: mock.url } });

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
