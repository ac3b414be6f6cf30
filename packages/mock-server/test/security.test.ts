// What a web page the developer visits must not be able to do to a mock on 127.0.0.1:
// rebind DNS to it (421), call it cross-site (403), post a form at it (415), frame or
// forge its payment page, or use its control endpoints without the admin token (401).

import { TEST_CONFIG, type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { rawRequest } from '@profile-articles/test-utils/raw-request';
import { describe, expect, it } from 'vitest';

const KEY = { authorization: 'Bearer key-0001' };
const JSON_TYPE = { 'content-type': 'application/json' };

describe('Host and Origin over a real socket', () => {
  const h = useMock('http', { ...TEST_CONFIG, allowHosts: ['mock.internal'] });
  const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    rawRequest(h.baseUrl, method, path, headers, body);
  const port = () => new URL(h.baseUrl).port;

  it('answers 421 unless Host names the listening address, a loopback name or an allowed host', async () => {
    for (const host of ['evil.example', `evil.example:${port()}`, 'localhost.evil.example', '10.0.0.1']) {
      const answer = await raw('GET', '/api/v1/credits', { ...KEY, host });
      expect(answer.status, host).toBe(421);
      expect(answer.body.detail, host).toContain('--allow-host');
    }
    for (const host of [
      '127.0.0.1',
      `127.0.0.1:${port()}`,
      'localhost:1234',
      'LOCALHOST',
      '[::1]:9',
      'mock.internal:80',
    ]) {
      expect((await raw('GET', '/api/v1/credits', { ...KEY, host })).status, host).toBe(200);
    }
    // An absolute request target names a host too.
    const absolute = await raw('GET', 'http://evil.example/api/v1/credits', { ...KEY, host: '127.0.0.1' });
    expect(absolute.status).toBe(421);
    // The payment page and unknown paths are no exception.
    expect((await raw('GET', '/checkout/cs_x', { host: 'evil.example' })).status).toBe(421);
  });

  it('builds checkout URLs from the accepted Host', async () => {
    const answer = await raw(
      'POST',
      '/api/v1/credits/checkout',
      { ...KEY, ...JSON_TYPE, host: `localhost:${port()}` },
      '{"credits":20}',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.url).toBe(`http://localhost:${port()}/checkout/${answer.body.session_id}`);
  });

  it('answers 403 to an Origin the Host check would not accept, on the API, control and Pay', async () => {
    const evil = { origin: 'https://evil.example' };
    expect((await raw('GET', '/api/v1/credits', { ...KEY, ...evil })).status).toBe(403);
    expect((await raw('GET', '/api/v1/credits', { ...KEY, origin: 'null' })).status).toBe(403);
    const generate = await raw(
      'POST',
      '/api/v1/articles',
      { ...KEY, ...JSON_TYPE, ...evil, 'idempotency-key': 'k' },
      '{"profile_id":"ada"}',
    );
    expect(generate.status).toBe(403);
    expect(typeof generate.body.detail).toBe('string');
    await h.advance(1000);
    const before = h.service.now();
    expect((await raw('POST', '/_mock/reset', evil)).status).toBe(403);
    expect(h.service.now()).toBeGreaterThanOrEqual(before); // not reset
    const checkout = await h.call('POST', '/api/v1/credits/checkout', { body: { credits: 20 } });
    const page = await raw('GET', `/checkout/${checkout.body.session_id}`);
    const token = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const pay = await raw(
      'POST',
      `/checkout/${checkout.body.session_id}/pay`,
      { ...evil, 'content-type': 'application/x-www-form-urlencoded' },
      `csrf=${token}`,
    );
    expect(pay.status).toBe(403);
    expect(h.service.balance('acme')).toBe(1000);
    // Pages on this machine and clients that send no Origin pass.
    expect((await raw('GET', '/api/v1/credits', { ...KEY, origin: 'http://localhost:3000' })).status).toBe(
      200,
    );
    expect((await raw('GET', '/api/v1/credits', { ...KEY, origin: 'http://mock.internal' })).status).toBe(
      200,
    );
    expect((await raw('GET', '/api/v1/credits', KEY)).status).toBe(200);
  });

  it('takes control calls from a browser only from its own origin: another local server cannot reset it', async () => {
    // Attack trial: a page served by any other local server (http://localhost:3000) could send a
    // body-less POST /_mock/reset, which needs no preflight, and the loopback Origin passed.
    await h.advance(60_000);
    const moved = h.service.now();
    for (const origin of [
      'http://localhost:3000',
      `http://localhost:${Number(port()) + 1}`,
      'http://127.0.0.1',
      `https://evil.example:${port()}`,
      'http://mock.internal',
    ]) {
      expect((await raw('POST', '/_mock/reset', { origin })).status, origin).toBe(403);
      expect((await raw('POST', '/_mock/clock/advance', { origin, ...JSON_TYPE }, '{"ms":1}')).status).toBe(
        403,
      );
      expect((await raw('GET', '/_mock/requests', { origin })).status, origin).toBe(403);
      expect((await raw('GET', '/_mock/events', { origin })).status, origin).toBe(403);
    }
    expect(h.service.now()).toBeGreaterThanOrEqual(moved); // never reset
    // The dashboard's own calls: Origin the very origin the Host header names.
    const own = { origin: `http://127.0.0.1:${port()}`, host: `127.0.0.1:${port()}` };
    expect((await raw('GET', '/_mock/requests', own)).status).toBe(200);
    const sameName = { origin: `http://localhost:${port()}`, host: `localhost:${port()}` };
    expect((await raw('POST', '/_mock/reset', sameName)).status).toBe(200);
    expect(h.service.now()).toBeLessThan(moved);
  });

  it("refuses a browser's control request from another site even without an Origin (Sec-Fetch-Site)", async () => {
    // A cross-origin GET in no-cors mode (an <img> or <script> tag) carries no Origin; the
    // browser still says where it came from. Reading the journal must not be one of those.
    for (const site of ['cross-site', 'same-site']) {
      const answer = await raw('GET', '/_mock/requests', { 'sec-fetch-site': site });
      expect(answer.status, site).toBe(403);
      expect((await raw('GET', '/_mock/events', { 'sec-fetch-site': site })).status, site).toBe(403);
    }
    // The dashboard's own requests, and an address typed into the browser, pass.
    for (const site of ['same-origin', 'none'])
      expect((await raw('GET', '/_mock/requests', { 'sec-fetch-site': site })).status, site).toBe(200);
    // The API is no business of this rule: a foreign page cannot send its key anyway.
    expect((await raw('GET', '/api/v1/credits', { ...KEY, 'sec-fetch-site': 'cross-site' })).status).toBe(
      200,
    );
  });

  it('checks in the order 421, 403, 415, 401, and none of them counts against the rate window', async () => {
    const limited = { authorization: 'Bearer key-limited' };
    const bad = { host: 'evil.example', origin: 'https://evil.example', 'content-type': 'text/plain' };
    expect((await raw('POST', '/api/v1/credits/checkout', { ...limited, ...bad }, 'x')).status).toBe(421);
    const { host: _host, ...crossSite } = bad;
    expect((await raw('POST', '/api/v1/credits/checkout', { ...limited, ...crossSite }, 'x')).status).toBe(
      403,
    );
    expect(
      (await raw('POST', '/api/v1/credits/checkout', { ...limited, 'content-type': 'text/plain' }, 'x'))
        .status,
    ).toBe(415);
    expect(
      (await raw('POST', '/api/v1/credits/checkout', { 'content-type': 'text/plain' }, 'x')).status,
    ).toBe(415);
    for (let i = 0; i < 3; i++)
      expect((await raw('GET', '/api/v1/credits', limited)).status, `request ${i + 1}`).toBe(200);
    expect((await raw('GET', '/api/v1/credits', limited)).status).toBe(429);
  });
});

describe.each<TransportKind>(['http', 'msw'])('content type and admin token over %s', (kind) => {
  const h = useMock(kind, { ...TEST_CONFIG, adminToken: 'admin-secret' });
  const admin = { authorization: 'Bearer admin-secret' };

  it('answers 415 to a POST body that is not declared application/json, and charges nothing', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['/api/v1/articles', { 'content-type': 'text/plain' }],
      ['/api/v1/articles', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['/api/v1/credits/checkout', { 'content-type': 'multipart/form-data; boundary=x' }],
      ['/_mock/clock/advance', { ...admin, 'content-type': 'text/plain' }],
    ];
    for (const [path, headers] of cases) {
      const answer = await h.call('POST', path, {
        rawBody: path.includes('checkout') ? '{"credits":20}' : '{"profile_id":"ada","ms":1}',
        headers,
        idempotencyKey: 'k',
        ...(path.startsWith('/_mock') ? { key: null } : {}),
      });
      expect(answer.status, `${path} ${headers['content-type']}`).toBe(415);
      expect(typeof answer.body.detail).toBe('string');
    }
    expect(h.service.balance('acme')).toBe(1000);
    const charset = await h.call('POST', '/api/v1/articles', {
      rawBody: '{"profile_id":"ada"}',
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      idempotencyKey: 'k',
    });
    expect(charset.status).toBe(202);
    // A POST without a body needs no type.
    expect((await h.call('POST', '/api/v1/articles/ada/update', { idempotencyKey: 'u' })).status).toBe(404);
  });

  it('guards /_mock/* with the admin token when one is configured', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Bearer key-0001' }]) {
      const answer = await h.call('GET', '/_mock/requests', { key: null, headers });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await h.call('POST', '/_mock/clock/advance', { key: null, body: { ms: 1 } })).status).toBe(401);
    expect((await h.call('GET', '/_mock/requests', { key: null, headers: admin })).status).toBe(200);
    expect((await h.call('POST', '/_mock/reset', { key: null, headers: admin })).status).toBe(200);
    // The API itself still takes API keys.
    expect((await h.call('GET', '/api/v1/credits')).status).toBe(200);
  });
});

describe.each<TransportKind>(['http', 'msw'])('the payment page over %s', (kind) => {
  const h = useMock(kind);
  const open = async () => {
    const { body } = await h.call('POST', '/api/v1/credits/checkout', { body: { credits: 20 } });
    const page = await fetch(body.url);
    return { id: body.session_id as string, url: body.url as string, page, html: await page.text() };
  };
  const pay = (url: string, form: string) =>
    fetch(`${url}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });

  it('cannot be framed or sniffed and allows no script', async () => {
    const { page } = await open();
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = page.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
      "base-uri 'none'",
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe');
    const missing = await fetch(`${h.baseUrl}/checkout/cs_nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-frame-options')).toBe('DENY');
  });

  it('pays only with the token of its own page', async () => {
    const first = await open();
    const second = await open();
    const token = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;
    for (const form of ['', 'csrf=', `csrf=${token(second.html)}`, `csrf=${token(first.html)}x`]) {
      const answer = await pay(first.url, form);
      expect(answer.status, form).toBe(403);
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
    }
    expect(h.service.balance('acme')).toBe(1000);
    const paid = await pay(first.url, `csrf=${encodeURIComponent(token(first.html))}`);
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('20 credits were added');
    expect(h.service.balance('acme')).toBe(1020);
  });
});
