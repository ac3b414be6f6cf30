import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createScheduler } from '../work/scheduler.js';
import { createIdempotencyKeys, IDEMPOTENCY_TTL_MS } from './idempotency.js';

describe('idempotency keys', () => {
  it('replay the same request, refuse another request, and are per account', () => {
    const keys = createIdempotencyKeys(createScheduler());
    keys.remember(
      'a',
      'k',
      { operation: 'generate', profileId: 'p', outcome: { kind: 'job', jobId: 'j' } },
      0,
    );
    expect(keys.lookup('a', 'k', 'generate', 'p')).toEqual({
      kind: 'replay',
      outcome: { kind: 'job', jobId: 'j' },
    });
    expect(keys.lookup('a', 'k', 'generate', 'q').kind).toBe('mismatch');
    expect(keys.lookup('a', 'k', 'update', 'p').kind).toBe('mismatch');
    expect(keys.lookup('b', 'k', 'generate', 'p').kind).toBe('new');
  });

  it('expire after 24 hours of the clock', () => {
    const scheduler = createScheduler();
    const keys = createIdempotencyKeys(scheduler);
    keys.remember('a', 'k', { operation: 'update', profileId: 'p', outcome: { kind: 'job', jobId: 'j' } }, 0);
    scheduler.runDue(IDEMPOTENCY_TTL_MS - 1);
    expect(keys.lookup('a', 'k', 'update', 'p').kind).toBe('replay');
    scheduler.runDue(IDEMPOTENCY_TTL_MS);
    expect(keys.lookup('a', 'k', 'update', 'p').kind).toBe('new');
  });

  it('agree with a plain model of keys per account, through expiry and reuse', () => {
    const step = fc.oneof(
      fc.record({
        act: fc.constant('remember' as const),
        account: fc.constantFrom('a', 'b'),
        key: fc.constantFrom('k1', 'k2', 'k3'),
        profileId: fc.constantFrom('p', 'q'),
      }),
      fc.record({
        act: fc.constant('advance' as const),
        ms: fc.integer({ min: 0, max: IDEMPOTENCY_TTL_MS }),
      }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const scheduler = createScheduler();
        const keys = createIdempotencyKeys(scheduler);
        const model = new Map<string, { profileId: string; until: number }>();
        let now = 0;
        for (const s of steps) {
          if (s.act === 'advance') {
            now += s.ms;
            scheduler.runDue(now);
            for (const [id, entry] of model) if (entry.until <= now) model.delete(id);
          } else if (keys.lookup(s.account, s.key, 'generate', s.profileId).kind === 'new') {
            // As the operations do: only a new key is remembered.
            const outcome = { kind: 'job' as const, jobId: `${s.account}${s.key}` };
            keys.remember(s.account, s.key, { operation: 'generate', profileId: s.profileId, outcome }, now);
            model.set(`${s.account} ${s.key}`, { profileId: s.profileId, until: now + IDEMPOTENCY_TTL_MS });
          }
          expect(keys.size).toBe(model.size);
          for (const account of ['a', 'b'])
            for (const key of ['k1', 'k2', 'k3']) {
              const entry = model.get(`${account} ${key}`);
              const kind = keys.lookup(account, key, 'generate', 'p').kind;
              expect(kind).toBe(entry ? (entry.profileId === 'p' ? 'replay' : 'mismatch') : 'new');
            }
        }
      }),
      { numRuns: 200 },
    );
  });
});
