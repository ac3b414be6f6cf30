import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPacer } from './pacing.js';

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
afterEach(() => vi.useRealTimers());

describe('createPacer', () => {
  it('lets the waiter with the oldest `since` go first (the job waiting longest polls first)', async () => {
    const pacer = createPacer({ limit: 1, windowMs: 1_000 });
    const order: string[] = [];
    const first = await pacer.acquire(undefined);
    const later = [
      pacer.acquire(undefined, 300).then((release) => {
        order.push('since 300');
        release();
      }),
      pacer.acquire(undefined, 100).then((release) => {
        order.push('since 100');
        release();
      }),
      pacer.acquire(undefined, 200).then((release) => {
        order.push('since 200');
        release();
      }),
    ];
    first();
    await vi.advanceTimersByTimeAsync(5_000);
    await Promise.all(later);
    expect(order).toEqual(['since 100', 'since 200', 'since 300']);
  });

  it('holds a slot from grant until a window after the answer, not after the send', async () => {
    const pacer = createPacer({ limit: 1, windowMs: 1_000 });
    const release = await pacer.acquire(undefined);
    await vi.advanceTimersByTimeAsync(5_000); // a slow answer
    release();
    let granted = false;
    void pacer.acquire(undefined).then(() => {
      granted = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toBe(true);
  });

  it('after a 429 holds every request for Retry-After', async () => {
    const pacer = createPacer({ limit: 100, windowMs: 1_000 });
    pacer.rateLimited(3_000);
    let granted = false;
    void pacer.acquire(undefined).then(() => {
      granted = true;
    });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toBe(true);
  });
});
