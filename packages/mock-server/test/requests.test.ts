import { type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { describe, expect, it } from 'vitest';

describe.each<TransportKind>(['http', 'msw'])('auth, limits and bad input over %s', (kind) => {
  const h = useMock(kind);

  it('answers 401 for a missing, malformed or unknown key', async () => {
    for (const headers of [{}, { authorization: 'Basic key-1' }, { authorization: 'Bearer nope' }]) {
      const answer = await h.call('GET', '/api/v1/credits', { key: null, headers });
      expect(answer.status).toBe(401);
      expect(typeof answer.body.detail).toBe('string');
    }
  });

  it('rate-limits per account over a sliding minute, with an integer Retry-After', async () => {
    for (let i = 0; i < 3; i++)
      expect((await h.call('GET', '/api/v1/credits', { key: 'key-limited' })).status).toBe(200);
    const limited = await h.call('GET', '/api/v1/credits', { key: 'key-limited' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Other accounts are not affected.
    expect((await h.call('GET', '/api/v1/credits')).status).toBe(200);
    await h.advance(60_000);
    expect((await h.call('GET', '/api/v1/credits', { key: 'key-limited' })).status).toBe(200);
  });

  it('counts free and failed requests against the limit', async () => {
    await h.call('GET', '/api/v1/articles/missing', { key: 'key-limited' });
    await h.call('GET', '/api/v1/jobs/bad', { key: 'key-limited' });
    await h.call('GET', '/api/v1/credits', { key: 'key-limited' });
    expect((await h.call('GET', '/api/v1/credits', { key: 'key-limited' })).status).toBe(429);
  });

  it('rejects bad bodies with 422 {detail: [{loc, msg, type}]} and changes nothing', async () => {
    const cases = [
      { rawBody: '{not json', headers: { 'content-type': 'application/json' } },
      { body: {} },
      { body: { profile_id: '' } },
      { body: { profile_id: 'x'.repeat(201) } },
      { body: { profile_id: 'ok', extra: 1 } },
      { body: { profile_id: 42 } },
      { body: [] },
    ];
    for (const input of cases) {
      const answer = await h.call('POST', '/api/v1/articles', { ...input, idempotencyKey: 'k' });
      expect(answer.status, JSON.stringify(input)).toBe(422);
      expect(Array.isArray(answer.body.detail)).toBe(true);
      for (const entry of answer.body.detail)
        expect(entry).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
    }
    expect((await h.call('GET', '/api/v1/credits')).body.credits).toBe(1000);
    // The key was not spent by the refused requests.
    expect(
      (await h.call('POST', '/api/v1/articles', { body: { profile_id: 'ok' }, idempotencyKey: 'k' })).status,
    ).toBe(202);
  });

  it('accepts exactly 200 characters of profile_id', async () => {
    expect(
      (
        await h.call('POST', '/api/v1/articles', {
          body: { profile_id: 'x'.repeat(200) },
          idempotencyKey: 'k',
        })
      ).status,
    ).toBe(202);
  });

  it('answers 413 for bodies over 1 MiB', async () => {
    const answer = await h.call('POST', '/api/v1/articles', {
      rawBody: 'x'.repeat(1024 * 1024 + 1),
      idempotencyKey: 'k',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(413);
    expect(typeof answer.body.detail).toBe('string');
  });

  it('answers unknown routes 404 and wrong methods 405, both with {detail}', async () => {
    const unknown = await h.call('GET', '/api/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.detail).toBe('string');
    const wrong = await h.call('DELETE', '/api/v1/credits');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect((await h.call('GET', '/elsewhere', { key: null })).status).toBe(404);
  });

  it('never answers 5xx to odd client input', async () => {
    const paths = [
      '/api/v1/articles/%E0%A4%A',
      '/api/v1/jobs/%00',
      '/api/v1/articles/a%2Fb',
      '/api/v1/articles/' + 'y'.repeat(300),
    ];
    for (const path of paths) {
      const answer = await h.call('GET', path);
      expect(answer.status, path).toBeLessThan(500);
    }
    const odd = await h.call('POST', '/api/v1/credits/checkout', {
      rawBody: 'null',
      headers: { 'content-type': 'application/json' },
    });
    expect(odd.status).toBe(422);
  });

  it('journals requests with the account, never the key', async () => {
    await h.call('POST', '/api/v1/articles', {
      key: 'key-0002',
      body: { profile_id: 'a' },
      idempotencyKey: 'journal-key',
    });
    const journal = await h.call('GET', '/_mock/requests', { key: null });
    const text = JSON.stringify(journal.body);
    expect(journal.body.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/articles',
      status: 202,
      accountId: 'acme',
      idempotencyKey: 'journal-key',
    });
    expect(text).not.toContain('key-0002');
    expect(text).not.toContain('Bearer');
  });

  it('reset returns to the configured start state', async () => {
    await h.call('POST', '/api/v1/articles', { body: { profile_id: 'a' }, idempotencyKey: 'k' });
    await h.call('POST', '/_mock/reset', { key: null });
    expect((await h.call('GET', '/api/v1/credits')).body.credits).toBe(1000);
    expect(
      (await h.call('POST', '/api/v1/articles', { body: { profile_id: 'a' }, idempotencyKey: 'k' })).status,
    ).toBe(202);
  });
});
