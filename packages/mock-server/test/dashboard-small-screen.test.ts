// The dashboard as a person meets it in Chromium: on a phone-sized screen (375×667) the page
// never scrolls sideways and the Pay button is on screen; a dropped connection (a `reset`
// fault) reads "reset", not status 0; the footer's link is one a user of the package can open
// (its README on npm), not a path that exists only in the repository. A key sent by mistake as
// a profile id or an Idempotency-Key shows as [redacted].
import { existsSync } from 'node:fs';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { CHROMIUM, CHROMIUM_FLAGS as FLAGS } from '@profile-articles/test-utils/chromium';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const KEY = 'key-small-screen-1';

describe.runIf(existsSync(CHROMIUM))('the dashboard in Chromium at 375×667', () => {
  let server: MockServer;
  let browser: Browser;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    server = await startMockServer({
      port: 0,
      config: {
        accounts: [{ id: 'an-account-with-a-long-name', apiKeys: [KEY], credits: 1000 }],
        jobs: { queuedMs: 30_000, runningMs: 120_000 },
      },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    // What fills the tables: a job, a pending checkout, a long path, and a dropped connection.
    await api('/api/v1/articles', {
      method: 'POST',
      headers: { 'idempotency-key': 'a-rather-long-idempotency-key-0001' },
      body: JSON.stringify({ profile_id: 'ada-lovelace-with-a-long-profile-id' }),
    });
    // The key sent by mistake as a profile id and an Idempotency-Key: the page must not show it.
    await api('/api/v1/articles', {
      method: 'POST',
      headers: { 'idempotency-key': KEY },
      body: JSON.stringify({ profile_id: KEY }),
    });
    await api('/api/v1/credits/checkout', { method: 'POST', body: JSON.stringify({ credits: 100 }) });
    await api(`/api/v1/articles/${'long-profile-id-'.repeat(4)}x`);
    await fetch(`${server.url}/_mock/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ route: 'GET /api/v1/credits', kind: 'reset', probability: 1 }] }),
    });
    await api('/api/v1/credits').catch(() => undefined);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('never scrolls sideways, keeps Pay on screen, says "reset" for a dropped connection and links to the README', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 667 } });
    await page.goto(`${server.url}/_mock/`);
    await page.locator('#journal tbody tr', { hasText: '/api/v1/credits' }).first().waitFor();
    await page.getByRole('button', { name: 'Pay' }).waitFor();
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    const pay = await page.getByRole('button', { name: 'Pay' }).boundingBox();
    expect(pay).not.toBeNull();
    expect((pay?.x ?? 0) + (pay?.width ?? 0)).toBeLessThanOrEqual(375);
    expect(pay?.x ?? -1).toBeGreaterThanOrEqual(0);
    const reset = page
      .locator('#journal tbody tr', { hasText: 'GET' })
      .filter({ hasText: '/api/v1/credits' });
    const cells = await reset.first().locator('td').allTextContents();
    expect(cells).toContain('reset');
    expect(cells).not.toContain('0');
    const shown = (await page.locator('body').textContent()) ?? '';
    expect(shown).toContain('[redacted]');
    expect(shown).not.toContain(KEY);
    const link = page.locator('footer a');
    expect(await link.getAttribute('href')).toBe(
      'https://www.npmjs.com/package/@profile-articles/mock-server',
    );
    expect(await page.locator('footer').textContent()).not.toContain('docs/mock-server.md');
    await page.close();
  });
});
