// --log over HTTP and in a terminal, from both bins: one line per request with the mock's time,
// account, method, path, status, credits moved, request id and duration; plain in a pipe,
// the status coloured on a terminal; never a key, and no control character a request wrote.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyLeaks } from '@profile-articles/test-utils/key-echoes';
import { CLI_BIN, MOCK_BIN, MOCK_BIN_KINDS, startMockBin } from '@profile-articles/test-utils/mock-bins';
import { hasTmux, openTerminal } from '@profile-articles/test-utils/tmux';
import { describe, expect, it } from 'vitest';

const KEY = 'log-test-key-0001';
const configPath = join(mkdtempSync(join(tmpdir(), 'request-log-')), 'config.json');
const HOSTILE_KEY = 'log-test-key-0002';
writeFileSync(
  configPath,
  JSON.stringify({
    accounts: [
      { id: 'acme', apiKeys: [KEY], credits: 500 },
      { id: 'evil\u001b]0;owned\u0007\u009b31m', apiKeys: [HOSTILE_KEY] },
    ],
  }),
);
const auth = { authorization: `Bearer ${KEY}` };
const LINE = (method: string, path: string, status: string, credits: string) =>
  new RegExp(
    `^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z acme ${method} ${path.replaceAll('/', '\\/')} ${status} ${credits.replace('+', '\\+')} req_\\w+ \\d+\\.\\dms$`,
    'm',
  );

describe.each(MOCK_BIN_KINDS)('%s --log', (kind) => {
  it('prints one plain line per request in a pipe, with what moved and no key', async () => {
    const mock = startMockBin(kind, ['--port', '0', '--config', configPath, '--log']);
    const url = await mock.url;
    const generated = await fetch(`${url}/api/v1/articles`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'log-1' },
      body: JSON.stringify({ profile_id: 'ada-lovelace' }),
    });
    expect(generated.status).toBe(202);
    const requestId = generated.headers.get('x-request-id');
    await fetch(`${url}/api/v1/credits`, { headers: auth });
    // The key in a path and in a query: the path's is redacted, the query is never printed.
    await fetch(`${url}/api/v1/articles/${KEY}?api_key=${KEY}`, { headers: auth });
    // The key percent-encoded other ways than encodeURIComponent (an attack trial's: lower-case
    // hex, every byte, some bytes in mixed case): redacted whole, as the key is.
    const lower = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const some = [...KEY]
      .map((c, i) => (i % 3 ? c : `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
      .join('');
    await fetch(`${url}/api/v1/articles/${lower}`, { headers: auth });
    await fetch(`${url}/api/v1/articles/x-${some}-y`, { headers: auth });
    // An account id with a terminal's title escape and an 8-bit CSI (a config is a file anyone
    // may hand over; node:http refuses such bytes in a path): shown escaped, never raw.
    await fetch(`${url}/api/v1/credits`, { headers: { authorization: `Bearer ${HOSTILE_KEY}` } });
    const out = await mock.waitForOutput(/ evil/);
    expect(out).not.toMatch(/[\u0007\u009b]/);
    expect(out).toMatch(LINE('POST', '/api/v1/articles', '202', '-100'));
    expect(out).toContain(` ${requestId} `);
    expect(out).toMatch(LINE('GET', '/api/v1/credits', '200', '0'));
    expect(out).toMatch(/ GET \/api\/v1\/articles\/\[redacted\] 404 0 /);
    expect(out).toMatch(/ GET \/api\/v1\/articles\/x-\[redacted\]-y 404 0 /);
    expect(out.match(/ GET \/api\/v1\/articles\/\[redacted\] 404 0 /g)).toHaveLength(2);
    expect(keyLeaks(out, KEY)).toEqual([]);
    expect(out).not.toContain(KEY);
    expect(out).not.toContain('\u001b');
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
  });

  it("leaves out the dashboard's own reads of /_mock/, and logs the same read from curl", async () => {
    const mock = startMockBin(kind, ['--port', '0', '--config', configPath, '--log']);
    const url = await mock.url;
    // What the dashboard's script sends for each change it is told of (a frontend developer's
    // trial: 28 of 29 lines were the page's six reads a change, the API call drowned in them).
    for (const view of ['stats', 'ledger', 'jobs'])
      await fetch(`${url}/_mock/${view}`, { headers: { 'sec-fetch-site': 'same-origin' } });
    await fetch(`${url}/_mock/stats`);
    await fetch(`${url}/api/v1/credits`, { headers: auth });
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    const lines = mock.stdout().split('\n');
    expect(lines.filter((line) => line.includes(' /_mock/'))).toEqual([
      expect.stringMatching(/ GET \/_mock\/stats 200 0 /),
    ]);
    expect(mock.stdout()).toMatch(LINE('GET', '/api/v1/credits', '200', '0'));
  });

  it('prints no request lines in a pipe unless asked', async () => {
    const mock = startMockBin(kind, ['--port', '0', '--config', configPath]);
    const url = await mock.url;
    await fetch(`${url}/api/v1/credits`, { headers: auth });
    // Stopped, the mock has written every line it would: a request's is written when its
    // answer's connection closes, which the server's close waits for.
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    expect(mock.stdout()).not.toContain('/api/v1/credits');
  });
});

describe.runIf(hasTmux).each(MOCK_BIN_KINDS)('%s in a terminal', (kind) => {
  it('logs by default, the status coloured, and --no-log turns it off', async () => {
    const bin = kind === 'profile-articles-mock' ? MOCK_BIN : `${CLI_BIN} mock`;
    const start = (flags: string) =>
      openTerminal(
        `env -u NO_COLOR TERM=xterm-256color ${process.execPath} ${bin} --port 0 --config ${configPath} ${flags}; echo EXIT=$?; sleep 30`,
      );
    const terminal = start('');
    const screen = await terminal.waitFor(/http:\/\/127\.0\.0\.1:\d+/);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(screen)?.[0] as string;
    await fetch(`${url}/api/v1/credits`, { headers: auth });
    await fetch(`${url}/api/v1/credits`);
    await terminal.waitFor(/ 401 /);
    const coloured = terminal.screen(true);
    expect(coloured).toMatch(/ GET \/api\/v1\/credits \u001b\[32m200\u001b\[39m 0 /);
    expect(coloured).toMatch(/ - GET \/api\/v1\/credits \u001b\[33m401\u001b\[39m 0 /);
    terminal.close();

    const quiet = start('--no-log');
    const quietScreen = await quiet.waitFor(/http:\/\/127\.0\.0\.1:\d+/);
    const quietUrl = /http:\/\/127\.0\.0\.1:\d+/.exec(quietScreen)?.[0] as string;
    await fetch(`${quietUrl}/api/v1/credits`, { headers: auth });
    // Stopped, it has written every line it would (see above): none may be on screen.
    quiet.keys('C-c');
    expect(await quiet.waitFor('EXIT=')).toContain('EXIT=0');
    expect(quiet.screen()).not.toContain('/api/v1/credits');
    quiet.close();
  });
});
