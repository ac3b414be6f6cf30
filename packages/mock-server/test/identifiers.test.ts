// Profile ids and keys the interface cannot serve are refused before anything is charged:
// strings that are not well-formed Unicode, the path segments `.` and `..` (URL
// normalisation makes them unreadable), and lengths counted in code points, not UTF-16 units.

import { type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { rawRequest } from '@profile-articles/test-utils/raw-request';
import { describe, expect, it } from 'vitest';

const EMOJI = '\u{1F600}'; // one code point, two UTF-16 units

describe.each<TransportKind>(['http', 'msw'])('identifiers over %s', (kind) => {
  const h = useMock(kind);
  const generate = (body: unknown, key = 'k1') =>
    h.call('POST', '/api/v1/articles', { body, idempotencyKey: key });

  it('refuses a profile_id with a lone surrogate with 422 and charges nothing', async () => {
    for (const profileId of ['\ud800', 'ada\udfff', '\udc00\ud800']) {
      const answer = await generate({ profile_id: profileId });
      expect(answer.status, JSON.stringify(profileId)).toBe(422);
      expect(answer.body.detail[0]).toMatchObject({ loc: ['body', 'profile_id'], type: 'string_unicode' });
    }
    expect(h.service.balance('acme')).toBe(1000);
    expect(h.service.state().jobs.activeFor('\ud800')).toBeUndefined();
  });

  it('refuses the profile ids . and .. in the body with 422 and charges nothing', async () => {
    for (const profileId of ['.', '..']) {
      const answer = await generate({ profile_id: profileId });
      expect(answer.status, profileId).toBe(422);
      expect(answer.body.detail[0].loc).toEqual(['body', 'profile_id']);
    }
    expect(h.service.balance('acme')).toBe(1000);
    // Other dotted ids are ordinary slugs.
    expect((await generate({ profile_id: '...' })).status).toBe(202);
  });

  it('counts the 1 to 200 characters of profile_id in code points', async () => {
    const ok = await generate({ profile_id: EMOJI.repeat(200) });
    expect(ok.status).toBe(202);
    const long = await generate({ profile_id: EMOJI.repeat(201) }, 'k2');
    expect(long.status).toBe(422);
    expect(long.body.detail[0]).toMatchObject({ loc: ['body', 'profile_id'], type: 'string_too_long' });
    // The path counts the same way.
    const read = await h.call('GET', `/api/v1/articles/${encodeURIComponent(EMOJI.repeat(201))}`);
    expect(read.status).toBe(422);
    expect(read.body.detail[0].loc).toEqual(['path', 'profile_id']);
    const fine = await h.call('GET', `/api/v1/articles/${encodeURIComponent(EMOJI.repeat(200))}`);
    expect(fine.status).toBe(404);
  });

  it('counts the 1 to 200 characters of Idempotency-Key', async () => {
    expect((await generate({ profile_id: 'ada' }, 'é'.repeat(200))).status).toBe(202);
    const long = await generate({ profile_id: 'grace' }, 'é'.repeat(201));
    expect(long.status).toBe(422);
    expect(long.body.detail[0]).toMatchObject({ loc: ['header', 'idempotency-key'] });
  });

  it('reports a wrong JSON type as a type error, not as a missing field', async () => {
    const cases: Array<[string, unknown, Array<string>]> = [
      ['/api/v1/articles', { profile_id: 5 }, ['body', 'profile_id']],
      ['/api/v1/articles', { profile_id: null }, ['body', 'profile_id']],
      ['/api/v1/credits/checkout', { credits: '10' }, ['body', 'credits']],
      ['/_mock/clock/advance', { ms: '5' }, ['body', 'ms']],
    ];
    for (const [path, body, loc] of cases) {
      const answer = await h.call('POST', path, { body, idempotencyKey: 'k' });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.detail, JSON.stringify(body)).toEqual([
        {
          loc,
          msg: expect.stringMatching(/^Invalid input: expected \w+, received \w+$/),
          type: 'invalid_type',
        },
      ]);
    }
    const missing = await h.call('POST', '/api/v1/credits/checkout', { body: {} });
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'credits'], msg: 'Field required', type: 'missing' },
    ]);
  });
});

describe('path segments . and .. over a real socket', () => {
  const h = useMock('http');
  // fetch would normalise `%2E%2E` before sending; a raw request sends the path as written.
  // The server's URL parsing then normalises it (WHATWG treats %2E as a dot), so such a
  // segment can never name a profile: the answer is 404 and nothing is charged.
  const raw = (method: string, path: string) =>
    rawRequest(h.baseUrl, method, path, { authorization: 'Bearer key-0001', 'idempotency-key': 'dots' });

  it('never reads, charges or updates them', async () => {
    await h.call('POST', '/api/v1/articles', { body: { profile_id: 'ada' }, idempotencyKey: 'g' });
    await h.advance(5000);
    for (const segment of ['%2E', '%2E%2E', '.%2e']) {
      for (const [method, path] of [
        ['GET', `/api/v1/articles/${segment}`],
        ['POST', `/api/v1/articles/${segment}/update`],
        ['GET', `/api/v1/articles/ada/${segment}`],
      ] as const) {
        const answer = await raw(method, path);
        expect(answer.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${method} ${path}`).toBeLessThan(500);
        expect(typeof answer.body.detail === 'string' || Array.isArray(answer.body.detail)).toBe(true);
      }
    }
    expect(h.service.balance('acme')).toBe(900);
    expect(h.service.state().jobs.activeFor('ada')).toBeUndefined();
  });
});
