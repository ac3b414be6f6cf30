import { describe, expect, it } from 'vitest';
import { createIdempotencyKeys, IDEMPOTENCY_TTL_MS } from './idempotency.js';
import { createScheduler } from './scheduler.js';

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
});
