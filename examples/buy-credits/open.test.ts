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

async function buyAgainst(page: string, browserEnv: Record<string, string | undefined>) {
  // The mock, but its checkout answers `page` as the payment page.
  const mock = await startDriftingMock(checkoutPage(page));
  const child = spawn(process.execPath, [script, '500', '--open'], {
    env: {
      ...process.env,
      ...browserEnv,
      PROFILE_ARTICLES_API_KEY: 'demo-key',
      PROFILE_ARTICLES_BASE_URL: mock.url,
      CHECK_EVERY_MS: '50',
    },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  exit.finally(() => mock.close());
  const stop = () => {
    if (child.exitCode === null) child.kill();
  };
  started.push(stop);
  return { exit, stderr: () => stderr, stop };
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
});
