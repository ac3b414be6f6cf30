// The mock over https (the certificate --tls makes, served in process): the Host and Origin
// rules hold with https origins, a checkout's payment URL names https (on the fast lane and on
// the general path alike), and in Chromium the dashboard follows the mock live and the payment
// page's Pay adds the credits, all over TLS.
import { existsSync } from 'node:fs';
import { request } from 'node:https';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { CHROMIUM, CHROMIUM_FLAGS as FLAGS } from '@profile-articles/test-utils/chromium';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateNames, makeCertificate } from '../src/console/tls-certificate.js';

const KEY = 'key-tls-1';
let server: MockServer;
let cert: string;

beforeAll(async () => {
  const pair = await makeCertificate(certificateNames('127.0.0.1', ['mock.internal']));
  cert = pair.cert;
  server = await startMockServer({
    port: 0,
    tls: pair,
    config: { accounts: [{ id: 'acme', apiKeys: [KEY], credits: 100 }], allowHosts: ['mock.internal'] },
  });
});
afterAll(() => server?.close());

/** One request over https that trusts the mock's certificate, with the headers as given (Host too). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, method, path, headers, ca: cert, servername: 'localhost' },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const own = () => `https://127.0.0.1:${server.port}`;

describe('Host and Origin over https', () => {
  it('answers its own and allowed names, and refuses another Host with 421', async () => {
    expect(server.url).toBe(own());
    for (const host of [
      `127.0.0.1:${server.port}`,
      `localhost:${server.port}`,
      `mock.internal:${server.port}`,
    ])
      expect((await send('GET', '/_mock/stats', { host })).status).toBe(200);
    const rebound = await send('GET', '/_mock/stats', { host: `evil.example:${server.port}` });
    expect(rebound.status).toBe(421);
    expect(rebound.json.detail).toEqual(expect.any(String));
  });

  it("takes a control call from the mock's own https origin and refuses another site's", async () => {
    const host = `127.0.0.1:${server.port}`;
    const json = { 'content-type': 'application/json', host };
    const body = JSON.stringify({ ms: 1000 });
    expect((await send('POST', '/_mock/clock/advance', { ...json, origin: own() }, body)).status).toBe(200);
    for (const origin of ['https://evil.example', `https://evil.example:${server.port}`])
      expect((await send('POST', '/_mock/clock/advance', { ...json, origin }, body)).status).toBe(403);
    // An allowed name's page may call the API, not the control endpoints of another origin.
    const fromAllowed = await send('GET', '/api/v1/credits', {
      host,
      origin: `https://mock.internal:${server.port}`,
      authorization: `Bearer ${KEY}`,
    });
    expect(fromAllowed.status).toBe(200);
  });

  it("names https in a checkout's payment URL, with and without an Origin", async () => {
    const headers = {
      host: `localhost:${server.port}`,
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
    };
    const body = JSON.stringify({ credits: 10 });
    // Without an Origin the fast lane answers; with one, the general path.
    const fast = await send('POST', '/api/v1/credits/checkout', headers, body);
    const general = await send(
      'POST',
      '/api/v1/credits/checkout',
      { ...headers, origin: `https://localhost:${server.port}` },
      body,
    );
    for (const answer of [fast, general]) {
      expect(answer.status).toBe(200);
      expect(answer.json.url).toMatch(new RegExp(`^https://localhost:${server.port}/`));
    }
  });
});

describe('startMockServer({ tls })', () => {
  it('refuses a key that is not the certificate’s before it listens', async () => {
    const [one, other] = [await makeCertificate(['localhost']), await makeCertificate(['localhost'])];
    await expect(startMockServer({ port: 0, tls: { cert: one.cert, key: other.key } })).rejects.toThrow();
  });
});

describe.runIf(existsSync(CHROMIUM))('the dashboard and the payment page over https in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  }, 120_000);
  afterAll(() => browser?.close());

  it('the dashboard follows the mock live, and Pay on the payment page adds the credits', async () => {
    server.service.reset();
    // The certificate is the mock's own, which this browser profile does not trust.
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const answer = await page.goto(`${own()}/_mock/`);
    expect(answer?.status()).toBe(200);
    await page
      .locator('#accounts tbody tr', { hasText: 'acme' })
      .filter({ hasText: '100' })
      .first()
      .waitFor();
    await page.waitForSelector('#live.on');

    const checkout = await send(
      'POST',
      '/api/v1/credits/checkout',
      {
        host: `127.0.0.1:${server.port}`,
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
      },
      JSON.stringify({ credits: 300 }),
    );
    // The dashboard hears of it over its https event stream.
    await page
      .locator('#checkouts tbody tr', { hasText: String(checkout.json.session_id) })
      .first()
      .waitFor();

    const pay = await context.newPage();
    await pay.goto(String(checkout.json.url));
    expect(await pay.textContent('#credits')).toBe('300');
    await pay.getByRole('button', { name: 'Pay' }).click();
    await pay.waitForSelector('#status');
    expect(await pay.textContent('#status')).toContain('300 credits were added');
    expect(server.service.balance('acme')).toBe(400);
    await page
      .locator('#accounts tbody tr', { hasText: 'acme' })
      .filter({ hasText: '400' })
      .first()
      .waitFor();
    await context.close();
  }, 120_000);
});
