// The short soak: mixed traffic with distinct idempotency keys, then the per-request state
// must be bounded: the journal capped, 60 rate buckets per account, idempotency records
// gone 24 hours (of the mock's clock) after their use, and nothing left on the scheduler.
// `pnpm soak` runs the long variant over HTTP at 100 connections.
import { createMockService } from '@profile-articles/mock-server';
import { describe, expect, it } from 'vitest';

// Half again the journal's 1,000 entries, enough to show it capped: each request is real work
// in this process (6,000 took over 20 s on a loaded 2-core machine); `pnpm soak` is the long run.
const REQUESTS = 1500;

describe('per-request state under traffic', () => {
  it('stays bounded, and idempotency records expire by time only', async () => {
    const service = createMockService(
      {
        accounts: [
          {
            id: 's1',
            apiKeys: ['key-s001'],
            credits: 10_000_000,
            pricing: { requests_per_minute: 1_000_000 },
          },
          {
            id: 's2',
            apiKeys: ['key-s002'],
            credits: 10_000_000,
            pricing: { requests_per_minute: 1_000_000 },
          },
        ],
        jobs: { queuedMs: 10, runningMs: 20 },
      },
      { now: () => Date.parse('2026-01-01T00:00:00Z') },
    );
    const send = (key: string, method: string, path: string, idem?: string, body?: unknown) =>
      service.handle(
        new Request(`http://mock.test${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            ...(idem ? { 'idempotency-key': idem } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    let keysUsed = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const key = i % 2 ? 'key-s001' : 'key-s002';
      const answer = await (i % 3 === 0
        ? send(key, 'POST', '/api/v1/articles', `key-${i}`, { profile_id: `p${i}` })
        : i % 3 === 1
          ? send(key, 'GET', `/api/v1/articles/p${i - 1}`)
          : send(key, 'GET', '/api/v1/credits'));
      expect(answer.status).toBeLessThan(500);
      if (i % 3 === 0 && answer.status === 202) keysUsed++;
      if (i % 300 === 0) service.advanceClock(1000);
    }
    const sizes = service.stats().sizes;
    console.log(`bounded state after ${REQUESTS} requests: ${JSON.stringify(sizes)}`);
    expect(sizes.journal).toBe(sizes.journalCapacity);
    expect(service.stats().requests).toBe(REQUESTS);
    expect(sizes.ledgerEntries).toBeLessThanOrEqual(sizes.ledgerCapacity);
    expect(sizes.rateBuckets).toBe(60 * 2);
    expect(keysUsed).toBe(REQUESTS / 3);
    expect(sizes.idempotencyKeys).toBe(keysUsed);

    // 24 hours later every key has expired, not before; the scheduler holds nothing more.
    service.advanceClock(24 * 3600_000 - 30_000);
    expect(service.stats().sizes.idempotencyKeys).toBeGreaterThan(0);
    service.advanceClock(60_000);
    const later = service.stats().sizes;
    expect(later.idempotencyKeys).toBe(0);
    expect(later.scheduledEvents).toBe(0);
    expect(later.activeJobs).toBe(0);
  });
});
