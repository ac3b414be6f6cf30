// The service without a socket: a Request in, a Response out (as hono tests its apps).
import { describe, expect, it } from 'vitest';
import { createMockService } from './service.js';

function seeded() {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

async function script(service: ReturnType<typeof createMockService>) {
  const headers = { authorization: 'Bearer demo-key', 'content-type': 'application/json' };
  const answers: unknown[] = [];
  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const init: RequestInit = { method, headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await service.handle(new Request(`http://mock.test${path}`, init));
    answers.push([response.status, await response.json()]);
  };
  await call('POST', '/api/v1/articles', { profile_id: 'ada' }, 'k1');
  service.advanceClock(10_000);
  await call('GET', '/api/v1/jobs/00000000-0000-4000-8000-000000000001');
  await call('POST', '/api/v1/credits/checkout', { credits: 10 });
  return answers;
}

describe('mock service', () => {
  it('replays identically with a fixed clock and seeded ids', async () => {
    const make = () =>
      createMockService({}, { now: () => Date.parse('2026-01-01T00:00:00Z'), newId: seeded() });
    const first = await script(make());
    const second = await script(make());
    expect(second).toEqual(first);
    expect(first[1]).toEqual([
      200,
      expect.objectContaining({ job_id: '00000000-0000-4000-8000-000000000001', status: 'succeeded' }),
    ]);
  });
});
