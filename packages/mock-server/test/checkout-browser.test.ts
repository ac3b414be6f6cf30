// The payment page in a real browser (Debian's Chromium, driven by playwright-core): a
// person sees the credits and the amount, presses Pay, and the credits arrive once.
import { existsSync } from 'node:fs';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { CHROMIUM, CHROMIUM_FLAGS as FLAGS } from '@profile-articles/test-utils/chromium';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.runIf(existsSync(CHROMIUM))('checkout page in Chromium', () => {
  let server: MockServer;
  let browser: Browser;
  const headers = { authorization: 'Bearer key-0001', 'content-type': 'application/json' };
  const balance = async () =>
    (await (await fetch(`${server.url}/api/v1/credits`, { headers })).json()).credits as number;
  /** A new checkout's payment page URL. */
  const checkoutUrl = async (credits: number) => {
    const body = JSON.stringify({ credits });
    const answer = await fetch(`${server.url}/api/v1/credits/checkout`, { method: 'POST', headers, body });
    return (await answer.json()).url as string;
  };

  beforeAll(async () => {
    server = await startMockServer({
      port: 0,
      config: {
        accounts: [{ id: 'a', apiKeys: ['key-0001'], credits: 100, pricing: { credit_price_cents: 7 } }],
      },
    });
    // playwright gives each launch a new empty profile folder of its own.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the purchase, and Pay adds the credits exactly once', async () => {
    const url = await checkoutUrl(300);
    const page = await browser.newPage();
    await page.goto(url);
    expect(await page.textContent('#credits')).toBe('300');
    expect(await page.textContent('#amount')).toBe('$21.00'); // 300 × 7 cents
    expect(await balance()).toBe(100);

    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForSelector('#status');
    expect(await page.textContent('#status')).toContain('300 credits were added');
    expect(await balance()).toBe(400);

    // Going back and paying again adds nothing; reopening shows it as paid.
    await page.goBack();
    await page.reload();
    expect(await page.textContent('#status')).toContain('300 credits were added');
    expect(await page.getByRole('button', { name: 'Pay' }).count()).toBe(0);
    expect(await balance()).toBe(400);
  });

  it('cannot be framed, and refuses a Pay posted from another site even with the right token', async () => {
    const url = await checkoutUrl(50);
    // The strongest attacker: one who somehow has the page's token.
    const token = /name="csrf" value="([^"]+)"/.exec(await (await fetch(url)).text())![1]!;
    const before = await balance();
    const page = await browser.newPage();
    // A page of no origin of the mock's (about:blank), framing the payment page and posting at it.
    // 'load' waits for the iframe too (its document, or the error page that replaces a refused one).
    await page.setContent(
      `<iframe src="${url}"></iframe><form method="post" action="${url}/pay">` +
        `<input type="hidden" name="csrf" value="${token}"><button>Win a prize</button></form>`,
      { waitUntil: 'load' },
    );
    const frame = page.frames().find((f) => f !== page.mainFrame());
    // Refused, not merely not loaded yet: Chromium shows its error page in the frame.
    expect(frame?.url()).toMatch(/^chrome-error:/);
    expect(await frame?.$('#credits').catch(() => null)).toBeNull();
    const [response] = await Promise.all([
      page.waitForResponse(`${url}/pay`),
      page.getByRole('button', { name: 'Win a prize' }).click(),
    ]);
    expect(response.status()).toBe(403);
    expect(await balance()).toBe(before);
  });
});
