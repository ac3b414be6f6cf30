import { describe, expect, it } from 'vitest';
import { checkStub, createStubs, type StubProbe, stubStatuses } from './stubs.js';

const probe = (over: Partial<StubProbe> = {}): StubProbe => ({
  route: 'GET /api/v1/credits',
  profileId: () => undefined,
  idempotencyKey: undefined,
  ...over,
});
const add = (stubs: ReturnType<typeof createStubs>, input: unknown) => {
  const checked = checkStub(input);
  if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
  return stubs.add(checked.stub).view;
};

describe('outcome stubs', () => {
  it('allows the statuses the table lists for a route, and 500; without a route, those every route lists', () => {
    expect(stubStatuses('POST /api/v1/credits/checkout')).toEqual([400, 401, 422, 429, 500, 502, 503]);
    expect(stubStatuses('GET /api/v1/jobs/{job_id}')).toEqual([401, 404, 422, 429, 500]);
    expect(stubStatuses(undefined)).toEqual([401, 422, 429, 500]);
  });

  it('picks the highest priority, then the newest, and counts its times down until it is gone', () => {
    const stubs = createStubs();
    const old = add(stubs, { outcome: { status: 500 }, times: 2 });
    const newer = add(stubs, { outcome: { status: 422 } });
    const high = add(stubs, { outcome: { status: 401 }, priority: 1 });
    expect(stubs.take(probe(), 'acme')?.id).toBe(high.id);
    expect(stubs.take(probe(), 'acme')?.id).toBe(newer.id);
    expect(stubs.take(probe(), 'acme')?.id).toBe(old.id);
    expect(stubs.list().map((s) => [s.id, s.times])).toEqual([[old.id, 1]]);
    expect(stubs.take(probe(), 'acme')?.id).toBe(old.id);
    expect(stubs.take(probe(), 'acme')).toBeUndefined();
    expect({ active: stubs.active, matched: stubs.matched }).toEqual({ active: 0, matched: 4 });
  });

  it('matches every field given, reading the profile only when a stub asks', () => {
    const stubs = createStubs();
    add(stubs, {
      match: { route: 'POST /api/v1/articles', profileId: 'ada', account: 'acme', idempotencyKey: 'k' },
      outcome: { lost: true },
    });
    let reads = 0;
    const generate = (profileId: string, key: string | undefined) =>
      probe({ route: 'POST /api/v1/articles', idempotencyKey: key, profileId: () => (reads++, profileId) });
    expect(stubs.take(generate('ada', 'other'), 'acme')).toBeUndefined();
    expect(reads).toBe(0);
    expect(stubs.take(generate('ada', 'k'), 'beta')).toBeUndefined();
    expect(stubs.take(generate('grace', 'k'), 'acme')).toBeUndefined();
    expect(stubs.mayMatch(generate('ada', 'k'))).toBe(true);
    expect(stubs.mayMatch(generate('ada', 'k'), 'beta')).toBe(false);
    expect(stubs.take(probe(), 'acme')).toBeUndefined();
    expect(stubs.take(generate('ada', 'k'), 'acme')?.outcome).toEqual({ lost: true });
  });

  it('names the field of a bad stub under body', () => {
    const locs = (input: unknown) => {
      const checked = checkStub(input);
      return checked.ok ? [] : checked.issues.map((issue) => issue.loc.join('.'));
    };
    expect(locs({ match: { route: 'GET /api/v1/credits' }, outcome: { status: 402 } })).toEqual([
      'body.outcome.status',
    ]);
    expect(locs({ outcome: { job: 'stuck', error: 'x' } })).toEqual(['body.outcome.error']);
    expect(locs({ outcome: { latencyMs: 0 } })).toContain('body.outcome.latencyMs');
    expect(locs({ outcome: { status: 500 }, times: 0 })).toEqual(['body.times']);
    expect(locs({ outcome: { status: 500 }, extra: 1 })).toHaveLength(1);
  });
});
