import { TEST_CONFIG, type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { describe, expect, it } from 'vitest';

describe.each<TransportKind>(['http', 'msw'])('checkout over %s', (kind) => {
  const h = useMock(kind);
  const balance = async () => (await h.call('GET', '/api/v1/credits')).body.credits;
  const checkout = (credits: unknown) => h.call('POST', '/api/v1/credits/checkout', { body: { credits } });

  it('answers a session and a payment page url; the balance waits for payment', async () => {
    const answer = await checkout(200);
    expect(answer.status).toBe(200);
    expect(answer.body.session_id).toEqual(expect.any(String));
    expect(answer.body.url).toBe(`${h.baseUrl}/checkout/${answer.body.session_id}`);
    expect(await balance()).toBe(1000);
  });

  it('shows the credits, the amount and a Pay button on the page; paying adds credits once', async () => {
    const { body } = await checkout(200);
    const page = await fetch(body.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('<span id="credits">200</span>');
    expect(html).toContain('$10.00'); // 200 × 5 cents
    expect(html).toMatch(/<button[^>]*>Pay<\/button>/);
    const form = /action="([^"]+)"/.exec(html)![1]!;
    const submit = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${/name="csrf" value="([^"]+)"/.exec(html)![1]}`,
    };
    const paid = await fetch(new URL(form, body.url), submit);
    expect(await paid.text()).toContain('200 credits were added');
    expect(await balance()).toBe(1200);
    const twice = await fetch(new URL(form, body.url), submit);
    expect(await twice.text()).toContain('already paid');
    expect(await balance()).toBe(1200);
  });

  it('completes through the control endpoint exactly once', async () => {
    const { body } = await checkout(50);
    const first = await h.call('POST', `/_mock/checkout/${body.session_id}/complete`, { key: null });
    expect(first.body).toMatchObject({ paid: true, credited: true });
    const second = await h.call('POST', `/_mock/checkout/${body.session_id}/complete`, { key: null });
    expect(second.body).toMatchObject({ paid: true, credited: false });
    expect(await balance()).toBe(1050);
    expect((await h.call('POST', '/_mock/checkout/cs_nope/complete', { key: null })).status).toBe(404);
  });

  it('answers 400 outside the purchase range, inclusive bounds allowed', async () => {
    expect((await checkout(9)).status).toBe(400);
    expect((await checkout(100_001)).status).toBe(400);
    expect((await checkout(10)).status).toBe(200);
    expect((await checkout(100_000)).status).toBe(200);
  });

  it('answers 422 for credits that are not a positive integer', async () => {
    for (const credits of [0, -5, 1.5, '20', null])
      expect((await checkout(credits)).status, String(credits)).toBe(422);
    expect((await h.call('POST', '/api/v1/credits/checkout', { body: {} })).status).toBe(422);
  });

  it('accepts and ignores fields the interface does not name (it forbids them only for a profile)', async () => {
    const answer = await h.call('POST', '/api/v1/credits/checkout', {
      body: { credits: 20, coupon: 'FREE', currency: 'EUR' },
    });
    expect(answer.status).toBe(200);
    const page = await (await fetch(answer.body.url)).text();
    expect(page).toContain('<span id="credits">20</span>');
    expect(page).toContain('$1.00'); // 20 × 5 cents: the extra fields changed nothing
  });
});

describe.each([
  ['disabled', 503],
  ['unavailable', 502],
] as const)('checkout with payments %s', (payments, status) => {
  const h = useMock('http', { ...TEST_CONFIG, payments });
  it(`answers ${status} with {detail}`, async () => {
    const answer = await h.call('POST', '/api/v1/credits/checkout', { body: { credits: 100 } });
    expect(answer.status).toBe(status);
    expect(typeof answer.body.detail).toBe('string');
  });
});

describe.each<TransportKind>(['http', 'msw'])('checkout page methods over %s', (kind) => {
  const h = useMock(kind);
  it('answers a wrong method on the page or the Pay action 405 with Allow', async () => {
    const { body } = await h.call('POST', '/api/v1/credits/checkout', { body: { credits: 20 } });
    const page = await h.call('POST', `/checkout/${body.session_id}`, { key: null });
    expect(page.status).toBe(405);
    expect(page.headers.get('allow')).toBe('GET');
    expect(typeof page.body.detail).toBe('string');
    const pay = await h.call('GET', `/checkout/${body.session_id}/pay`, { key: null });
    expect(pay.status).toBe(405);
    expect(pay.headers.get('allow')).toBe('POST');
    expect(h.service.balance('acme')).toBe(1000);
  });
});
