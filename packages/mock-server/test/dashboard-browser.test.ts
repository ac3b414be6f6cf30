// The dashboard at /_mock/ in a real browser (Debian's Chromium, driven by playwright-core):
// it follows the mock live without a reload, pays a checkout, moves the clock, asks for the
// admin token before it shows data, loads nothing from another origin and runs under its CSP.
// Run with UPDATE_SCREENSHOT=1 to write docs/mock-dashboard.png.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { CHROMIUM, CHROMIUM_FLAGS as FLAGS } from '@profile-articles/test-utils/chromium';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCREENSHOT = new URL('../../../docs/mock-dashboard.png', import.meta.url);

const ACCOUNTS = [
  { id: 'acme', apiKeys: ['key-acme-1'], credits: 1000, pricing: { credit_price_cents: 5 } },
  { id: 'beta', apiKeys: ['key-beta-1'], credits: 250 },
];

/** Every request the page makes, and every CSP violation it meets. */
function watch(page: Page) {
  const requests: { url: string; authorization: string | undefined }[] = [];
  page.on('request', (request) =>
    requests.push({ url: request.url(), authorization: request.headers().authorization }),
  );
  return { requests };
}

/** Counts the page's CSP violations, seen from inside it. */
async function trackViolations(page: Page) {
  await page.addInitScript(() => {
    (window as unknown as { violations: string[] }).violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { violations: string[] }).violations.push(event.violatedDirective),
    );
  });
}
const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { violations: string[] }).violations);

const row = (page: Page, table: string, text: string) =>
  page.locator(`#${table} tbody tr`, { hasText: text });
/**
 * Waits until `locator` shows `text`: playwright watches the page for it (an event, not a
 * sleep), up to its own 30 s bound, which only a broken page reaches.
 */
const shows = (locator: Locator, text: string) => locator.filter({ hasText: text }).first().waitFor();
/** Clicks a button of the page and waits for the answer to the request it makes. */
async function clickFor(page: Page, name: string, path: string) {
  const [answer] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === path),
    page.getByRole('button', { name }).click(),
  ]);
  return answer;
}

describe.runIf(existsSync(CHROMIUM))('the dashboard in Chromium', () => {
  let server: MockServer;
  let guarded: MockServer;
  let browser: Browser;
  const api = (path: string, init: RequestInit = {}, key = 'key-acme-1') =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    server = await startMockServer({
      port: 0,
      // Queued for 30 s of the mock's clock, which also runs in real time: a loaded machine took
      // more than the 1 s this once was before the page showed the job, and it was running.
      config: { accounts: ACCOUNTS, jobs: { queuedMs: 30_000, runningMs: 120_000 } },
    });
    guarded = await startMockServer({ port: 0, config: { accounts: ACCOUNTS, adminToken: 'admin-token-1' } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await guarded?.close();
  });

  it('lists the stubs live with their matched counts, and removes one', async () => {
    server.service.reset();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await trackViolations(page);
    await page.goto(`${server.url}/_mock/`);
    await page.waitForSelector('#live.on');
    await page.locator('#stubs-empty').waitFor();
    // Registered from outside the page, over HTTP and in process: both appear without a reload.
    const added = await fetch(`${server.url}/_mock/stubs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { route: 'POST /api/v1/articles' }, outcome: { status: 402 }, times: 3 }),
    });
    const stub = await added.json();
    const kept = server.service.stub({ match: { account: 'beta' }, outcome: { lost: true }, times: null });
    const stubRow = row(page, 'stubs', stub.id);
    await shows(stubRow, 'route=POST /api/v1/articles');
    await shows(stubRow, 'status=402');
    await shows(row(page, 'stubs', kept.id), 'every request');
    // A request it answers: its count and its times left move, and the journal names it.
    const refused = await api('/api/v1/articles', {
      method: 'POST',
      headers: { 'idempotency-key': 'dash-stub' },
      body: JSON.stringify({ profile_id: 'ada' }),
    });
    expect(refused.status).toBe(402);
    await stubRow.locator('td').nth(5).filter({ hasText: '1' }).waitFor();
    expect(await stubRow.locator('td').nth(3).textContent()).toBe('2');
    await shows(row(page, 'journal', refused.headers.get('x-request-id')!), `402 (${stub.id})`);
    // Remove: gone from the mock and from the page.
    const [removed] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === `/_mock/stubs/${stub.id}`),
      stubRow.getByRole('button', { name: `Remove ${stub.id}` }).click(),
    ]);
    expect(removed.status()).toBe(204);
    await stubRow.waitFor({ state: 'detached' });
    expect(server.service.stubs().map((s) => s.id)).toEqual([kept.id]);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it('follows the mock live without a reload, moves its clock and pays a checkout', async () => {
    server.service.reset();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await trackViolations(page);
    const seen = watch(page);
    let loads = 0;
    page.on('load', () => loads++);
    const answer = await page.goto(`${server.url}/_mock/`);
    expect(answer?.status()).toBe(200);
    await shows(row(page, 'accounts', 'acme'), '1000');
    await page.waitForSelector('#live.on');

    // A generate from outside the page appears: the job, the reservation, the new balance, the request.
    const started = await api('/api/v1/articles', {
      method: 'POST',
      headers: { 'idempotency-key': 'dash-1' },
      body: JSON.stringify({ profile_id: 'ada-lovelace' }),
    });
    const job = await started.json();
    const requestId = started.headers.get('x-request-id')!;
    const jobRow = row(page, 'jobs', job.job_id);
    await shows(jobRow, 'queued');
    await shows(row(page, 'accounts', 'acme'), '900');
    await shows(row(page, 'journal', requestId), '202');
    await shows(row(page, 'ledger', 'reservation'), '-100');
    expect(await jobRow.locator('td').nth(6).textContent()).toMatch(/^\d+ s$|^due$/);

    // The clock buttons move the mock's clock: the job runs, then succeeds.
    const before = server.service.now();
    expect((await clickFor(page, '+1 s', '/_mock/clock/advance')).status()).toBe(200);
    expect(server.service.now() - before).toBeGreaterThanOrEqual(1000);
    await clickFor(page, '+1 min', '/_mock/clock/advance');
    await shows(jobRow, 'running');
    expect(await jobRow.locator('td').nth(6).textContent()).toMatch(/min/);
    await clickFor(page, '+1 min', '/_mock/clock/advance');
    await clickFor(page, '+1 min', '/_mock/clock/advance');
    await shows(jobRow, 'succeeded');
    expect(server.service.now() - before).toBeGreaterThanOrEqual(181_000);
    await clickFor(page, '+30 min', '/_mock/clock/advance');
    expect(server.service.now() - before).toBeGreaterThanOrEqual(1_981_000);

    // A checkout appears as pending; Pay adds its credits once and takes it off the list.
    const checkout = await (
      await api(
        '/api/v1/credits/checkout',
        { method: 'POST', body: JSON.stringify({ credits: 300 }) },
        'key-beta-1',
      )
    ).json();
    const pending = row(page, 'checkouts', checkout.session_id);
    await shows(pending, '$15.00');
    await pending.getByRole('button', { name: 'Pay' }).click();
    await shows(row(page, 'accounts', 'beta'), '550');
    await pending.waitFor({ state: 'detached' });
    expect(server.service.balance('beta')).toBe(550);

    // The journal's filters.
    await page.fill('#journal-form input[name=status]', '202');
    await page.click('#journal-form button[type=submit]');
    await page.locator('#journal tbody tr').nth(1).waitFor({ state: 'detached' });
    expect(await page.locator('#journal tbody tr').count()).toBe(1);
    expect(await page.locator('#journal tbody tr').textContent()).toContain(requestId);

    if (process.env.UPDATE_SCREENSHOT) {
      await page.fill('#journal-form input[name=status]', '');
      await page.click('#journal-form button[type=submit]');
      await api('/api/v1/articles', {
        method: 'POST',
        headers: { 'idempotency-key': 'dash-2' },
        body: JSON.stringify({ profile_id: 'grace-hopper' }),
      });
      await api('/api/v1/credits/checkout', { method: 'POST', body: JSON.stringify({ credits: 500 }) });
      await page.locator('#checkouts tbody tr').first().waitFor();
      await page.screenshot({ path: SCREENSHOT.pathname, fullPage: true });
    }

    expect(loads).toBe(1); // all of it without a reload
    expect(await violations(page)).toEqual([]);
    // Nothing from another origin, and nothing but the page's own files and the control endpoints.
    for (const { url } of seen.requests) expect(url.startsWith(`${server.url}/_mock/`), url).toBe(true);
    await page.close();
  }, 180_000);

  it('is served with a strict CSP under which no inline script and no HTML sink runs', async () => {
    const page = await browser.newPage();
    await trackViolations(page);
    const answer = await page.goto(`${server.url}/_mock/`);
    const csp = answer?.headers()['content-security-policy'] ?? '';
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "require-trusted-types-for 'script'",
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toMatch(/unsafe|https?:|\*/);
    await page.waitForSelector('#live.on');
    // An inline script does not run, an HTML sink throws, a request elsewhere is refused.
    const outcome = await page.evaluate(async () => {
      const script = document.createElement('script');
      let html = 'allowed';
      try {
        document.body.insertAdjacentHTML('beforeend', '<b id="injected">x</b>');
      } catch (error) {
        html = (error as Error).name;
      }
      try {
        script.textContent = 'window.ran = true';
        document.body.append(script);
      } catch {}
      let foreign = 'allowed';
      await fetch('http://127.0.0.1:9/').catch(() => {
        foreign = 'refused';
      });
      return { ran: (window as unknown as { ran?: boolean }).ran === true, html, foreign };
    });
    expect(outcome).toEqual({ ran: false, html: 'TypeError', foreign: 'refused' });
    expect(await violations(page)).toEqual(expect.arrayContaining(['connect-src']));
    await page.close();
  }, 120_000);

  it('with an admin token, loads without it, shows no data until it is entered, and never puts it in a URL', async () => {
    const page = await browser.newPage();
    const seen = watch(page);
    expect((await page.goto(`${guarded.url}/_mock/`))?.status()).toBe(200);
    await page.waitForSelector('#token-form:not([hidden])');
    expect(await page.locator('#data').isHidden()).toBe(true);
    expect(await page.locator('#token-refused').isHidden()).toBe(true);
    // Without its data the page knows neither the mock's time nor whether it may move it: a
    // trial saw the browser's own time shown as the mock's, and clock buttons that got 401s.
    guarded.service.advanceClock(3_600_000);
    // Past one tick of the page's 1 s clock timer, which wrote the browser's time before.
    await page.waitForTimeout(1_100);
    expect(await page.locator('#clock').textContent()).toBe('–');
    expect(await page.locator('button[data-advance]:enabled').count()).toBe(0);
    // A wrong token: still the form, still no data.
    await page.fill('#token', 'not-the-token');
    await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/_mock/stats' && r.status() === 401),
      page.click('#token-form button[type=submit]'),
    ]);
    expect(await page.locator('#token-form').isVisible()).toBe(true);
    expect(await page.locator('#accounts tbody tr').count()).toBe(0);
    // It says the token was refused (a frontend trial found the form just stayed, silent).
    await page.waitForSelector('#token-refused:not([hidden])');
    expect(await page.locator('#token-refused').textContent()).toContain('The mock refused that token');
    expect(await page.locator('#live').textContent()).toBe('admin token refused');
    await page.fill('#token', 'admin-token-1');
    await page.click('#token-form button[type=submit]');
    await shows(row(page, 'accounts', 'acme'), '1000');
    await page.waitForSelector('#live.on');
    expect(await page.locator('#token-form').isHidden()).toBe(true);
    expect(await page.locator('#token-refused').isHidden()).toBe(true);
    expect(await page.locator('button[data-advance]:enabled').count()).toBe(3);
    const shown = Date.parse((await page.locator('#clock').textContent()) ?? '');
    expect(Math.abs(shown - guarded.service.now())).toBeLessThan(30_000);
    // The data, the actions and the event stream carry it as a header; no URL holds it.
    expect((await clickFor(page, '+1 s', '/_mock/clock/advance')).status()).toBe(200);
    const data = seen.requests.filter(
      (r) => !/\/_mock\/(dashboard\.(js|css))?$/.test(new URL(r.url).pathname),
    );
    const withToken = data.filter((r) => r.authorization === 'Bearer admin-token-1');
    for (const path of ['/_mock/events', '/_mock/stats', '/_mock/clock/advance'])
      expect(
        withToken.some((r) => new URL(r.url).pathname === path),
        path,
      ).toBe(true);
    for (const { url } of seen.requests) expect(url).not.toContain('admin-token-1');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + document.cookie)).not.toContain(
      'admin-token-1',
    );
    await page.close();
  }, 120_000);

  it('refuses control calls that a page of another local server sends (it reset the mock before)', async () => {
    server.service.reset();
    await api('/api/v1/credits'); // 1 credit
    const balance = server.service.balance('acme');
    // Another local server on another port: its page may send simple cross-origin requests.
    const foreign: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><script>
        fetch(${JSON.stringify(`${server.url}/_mock/reset`)}, { method: 'POST', mode: 'no-cors' });
        fetch(${JSON.stringify(`${server.url}/_mock/clock/advance`)}, { method: 'POST', mode: 'no-cors', body: '{"ms":1}' });
      </script>`);
    });
    await new Promise<void>((done) => foreign.listen(0, '127.0.0.1', done));
    try {
      const page = await browser.newPage();
      const answers = Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/_mock/reset')),
        page.waitForResponse((r) => r.url().endsWith('/_mock/clock/advance')),
      ]);
      await page.goto(`http://localhost:${(foreign.address() as AddressInfo).port}/`);
      const [reset, advance] = await answers;
      expect(reset.status()).toBe(403);
      // text/plain: refused at the Origin check, before the content type's 415.
      expect(advance.status()).toBe(403);
      expect(server.service.balance('acme')).toBe(balance); // not reset to 1000
      await page.close();
    } finally {
      await new Promise((done) => foreign.close(done));
    }
  }, 120_000);

  // 180 s: storing 100,000 jobs and listing them takes a few seconds of CPU, 29 s on a loaded
  // machine; the limit is there for a hang.
  it('stays usable with 100,000 jobs stored: a page of 50 at a time', async () => {
    const big = await startMockServer({
      port: 0,
      config: { accounts: [{ id: 'bulk', apiKeys: ['key-bulk-1'], credits: 100 * 100_000 }] },
    });
    try {
      const state = big.service.state();
      const at = big.service.now();
      for (let i = 0; i < 100_000; i++)
        state.jobs.start({
          accountId: 'bulk',
          profileId: `p-${i}`,
          kind: 'generate',
          idempotencyKey: `k-${i}`,
          credits: 100,
          queuedTimeoutMs: 600_000,
          at,
        });
      const page = await browser.newPage();
      await page.goto(`${big.url}/_mock/`);
      await shows(page.locator('#jobs-count'), '1–50 of 100000');
      expect(await page.locator('#jobs tbody tr').count()).toBe(50);
      expect(await page.locator('#jobs tbody tr').first().textContent()).toContain('p-99999');
      await page.click('#jobs-older');
      await shows(page.locator('#jobs-count'), '51–100 of 100000');
      expect(await page.locator('#jobs tbody tr').first().textContent()).toContain('p-99949');
      await page.close();
    } finally {
      await big.close();
    }
  }, 180_000);
});
