// Runs the example against the mock server over HTTP, and plays the buyer: opens the payment
// page the script printed and presses its Pay button (posts its form).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type MockServer, payCheckoutPage, startMockServer } from '@profile-articles/mock-server';
import { afterAll, beforeAll, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./index.mjs', import.meta.url));
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});
afterAll(() => mock.close());

function start(args: string[]) {
  const child = spawn(process.execPath, [script, ...args], {
    env: {
      ...process.env,
      PROFILE_ARTICLES_API_KEY: 'demo-key',
      PROFILE_ARTICLES_BASE_URL: mock.url,
      CHECK_EVERY_MS: '50',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, exit, output: () => ({ stdout, stderr }) };
}

/** Checks again every 25 ms until `check` gives a value, or the script has ended without one. */
async function until<T>(run: ReturnType<typeof start>, check: () => T | undefined): Promise<T> {
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (run.child.exitCode !== null || run.child.signalCode !== null)
      throw new Error(`the script ended: ${JSON.stringify(run.output())}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it('starts a checkout, waits for the payment, and reports the credits once they arrive', async () => {
  const run = start(['500']);
  const url = await until(run, () => /Pay for 500 credits at (\S+)/.exec(run.output().stdout)?.[1]);

  // The buyer: the page shows the amount (500 × 5 cents) and a Pay button.
  const page = await (await fetch(url)).text();
  expect(page).toContain('$25.00');
  expect(page).toMatch(/<button[^>]*>Pay<\/button>/);
  await new Promise((resolve) => setTimeout(resolve, 200)); // the script is waiting meanwhile
  expect(run.output().stdout).not.toContain('arrived');
  // Posts the page's form with its CSRF token, as the button does.
  expect((await payCheckoutPage(url)).status).toBe(200);

  expect(await run.exit).toBe(0);
  expect(run.output().stdout).toContain('500 credits arrived: the balance is 1500.');
});

it('names the allowed range when the amount is outside it', async () => {
  const run = start(['5']);
  expect(await run.exit).toBe(1);
  expect(run.output().stderr).toContain('Buy between 10 and 100000 credits.');
});
