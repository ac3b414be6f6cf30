// An error inside a scheduled event belongs to that event's job: the job fails and is
// refunded, the error is logged, and the request that happened to run the event is answered
// as if nothing went wrong.
import { createMockService } from '@profile-articles/mock-server';
import { seededId } from '@profile-articles/test-utils/seeded-ids';
import { describe, expect, it } from 'vitest';

const ACCOUNT = { id: 'a', apiKeys: ['key-aaaa'], credits: 1000 };

async function call(
  service: ReturnType<typeof createMockService>,
  method: string,
  path: string,
  body?: unknown,
  idem?: string,
) {
  const headers: Record<string, string> = {
    authorization: 'Bearer key-aaaa',
    'content-type': 'application/json',
  };
  if (idem) headers['idempotency-key'] = idem;
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await service.handle(new Request(`http://mock.test${path}`, init));
  return { status: response.status, body: (await response.json()) as any };
}

describe('errors inside scheduled events', () => {
  it('fail and refund the job, are logged, and never reach another request', async () => {
    const logged: unknown[] = [];
    let n = 0;
    const service = createMockService(
      { accounts: [ACCOUNT], jobs: { queuedMs: 1000, runningMs: 1000 } },
      {
        // The second id is the article's, made when the job publishes: it fails there.
        newId: () => {
          n++;
          if (n === 2) throw new Error('id source broke');
          return seededId(n);
        },
        onError: (error) => logged.push(error),
      },
    );
    const started = await call(service, 'POST', '/api/v1/articles', { profile_id: 'ada' }, 'k1');
    expect(started.status).toBe(202);
    expect(service.balance('a')).toBe(900);

    const advanced = await call(service, 'POST', '/_mock/clock/advance', { ms: 5000 });
    expect(advanced.status).toBe(200);
    const balance = await call(service, 'GET', '/api/v1/credits');
    expect(balance).toMatchObject({ status: 200, body: { credits: 1000 } });

    const job = await call(service, 'GET', `/api/v1/jobs/${started.body.job_id}`);
    expect(job.body).toMatchObject({ status: 'failed', credits_charged: 0, article: null });
    expect(job.body.error).toEqual(expect.any(String));
    expect(logged).toEqual([expect.objectContaining({ message: 'id source broke' })]);
    // The profile is free again.
    expect((await call(service, 'POST', '/api/v1/articles', { profile_id: 'ada' }, 'k2')).status).toBe(202);
  });
});

describe('the clock', () => {
  it('refuses an advance past what a Date holds with 422 and keeps serving', async () => {
    const service = createMockService({ accounts: [ACCOUNT] });
    const before = service.now();
    const answer = await call(service, 'POST', '/_mock/clock/advance', { ms: Number.MAX_SAFE_INTEGER });
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0].loc).toEqual(['body', 'ms']);
    expect(service.now() - before).toBeLessThan(60_000);
    expect((await call(service, 'GET', '/api/v1/credits')).status).toBe(200);
    expect((await call(service, 'POST', '/api/v1/articles', { profile_id: 'ada' }, 'k')).status).toBe(202);
    expect(() => service.advanceClock(Number.MAX_SAFE_INTEGER)).toThrow(RangeError);
    expect((await call(service, 'POST', '/_mock/clock/advance', { ms: 10_000 })).status).toBe(200);
  });
});
