// The admin token from where other local users cannot read it: `--admin-token` shows in the
// process list (/proc/PID/cmdline), `--admin-token-file FILE` and
// PROFILE_ARTICLES_MOCK_ADMIN_TOKEN do not. Precedence (PRODUCT.md, Fixes): a flag, else the
// environment, else the config's `adminToken`; both flags at once is a usage error (exit 2).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MOCK_BIN_KINDS, startMockBin } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'admin-token-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};
const env = (extra: NodeJS.ProcessEnv = {}) => {
  const { PROFILE_ARTICLES_MOCK_ADMIN_TOKEN: _unset, ...rest } = process.env;
  return { ...rest, ...extra };
};
/** The statuses of /_mock/stats without a token and with each of `tokens`. */
async function statuses(url: string, tokens: string[]): Promise<number[]> {
  const get = (token?: string) =>
    fetch(`${url}/_mock/stats`, token ? { headers: { authorization: `Bearer ${token}` } } : {}).then(
      (answer) => answer.status,
    );
  return [await get(), ...(await Promise.all(tokens.map(get)))];
}

describe.each(MOCK_BIN_KINDS)('%s', (kind) => {
  it('reads --admin-token-file, one trailing newline dropped, and keeps it out of the process list', async () => {
    const path = file(`token-${kind.length}`, 'file-secret\n');
    const mock = startMockBin(kind, ['--port', '0', '--no-log', '--admin-token-file', path], env());
    const url = await mock.url;
    expect(await statuses(url, ['file-secret', 'file-secre'])).toEqual([401, 200, 401]);
    const cmdline = readFileSync(`/proc/${mock.child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain('file-secret');
    expect(mock.stdout()).toContain('Control endpoints (/_mock/*) need the admin token');
  });

  it('drops a Windows newline too, and takes a file without one as it is', async () => {
    for (const text of ['crlf-secret\r\n', 'crlf-secret']) {
      const path = file(`token2-${kind.length}`, text);
      const mock = startMockBin(kind, ['--port', '0', '--no-log', '--admin-token-file', path], env());
      expect(await statuses(await mock.url, ['crlf-secret']), JSON.stringify(text)).toEqual([401, 200]);
      mock.child.kill();
      await mock.exited;
    }
  });

  it('reads PROFILE_ARTICLES_MOCK_ADMIN_TOKEN, which a flag overrides', async () => {
    const fromEnv = startMockBin(
      kind,
      ['--port', '0', '--no-log'],
      env({ PROFILE_ARTICLES_MOCK_ADMIN_TOKEN: 'env-secret' }),
    );
    expect(await statuses(await fromEnv.url, ['env-secret'])).toEqual([401, 200]);
    const overridden = startMockBin(
      kind,
      ['--port', '0', '--no-log', '--admin-token-file', file(`t3-${kind.length}`, 'file-wins')],
      env({ PROFILE_ARTICLES_MOCK_ADMIN_TOKEN: 'env-secret' }),
    );
    expect(await statuses(await overridden.url, ['file-wins', 'env-secret'])).toEqual([401, 200, 401]);
  });

  it("the environment overrides the config's adminToken", async () => {
    const config = file(`config-${kind.length}.json`, JSON.stringify({ adminToken: 'config-secret' }));
    const mock = startMockBin(
      kind,
      ['--port', '0', '--no-log', '--config', config],
      env({ PROFILE_ARTICLES_MOCK_ADMIN_TOKEN: 'env-secret' }),
    );
    expect(await statuses(await mock.url, ['env-secret', 'config-secret'])).toEqual([401, 200, 401]);
  });

  it('refuses --admin-token with --admin-token-file (exit 2), and an unreadable or empty file (exit 1)', async () => {
    const both = startMockBin(
      kind,
      ['--port', '0', '--admin-token', 'a', '--admin-token-file', file('b', 'b')],
      env(),
    );
    expect(await both.exited).toBe(2);
    expect(both.stderr()).toContain('--admin-token or --admin-token-file, not both');
    const missing = startMockBin(kind, ['--port', '0', '--admin-token-file', join(dir, 'nope')], env());
    expect(await missing.exited).toBe(1);
    expect(missing.stderr()).toMatch(/Cannot read the admin token file .*nope: ENOENT/);
    const empty = startMockBin(kind, ['--port', '0', '--admin-token-file', file('empty', '\n')], env());
    expect(await empty.exited).toBe(1);
    expect(empty.stderr()).toContain('is empty');
  });
});
