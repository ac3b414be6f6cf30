import { describe, expect, it } from 'vitest';
import { backoffDelayMs, shouldRetryStatus } from './retry.js';

describe('retry policy', () => {
  it('retries 408, 429 and 5xx gateways for idempotent calls, never client errors', () => {
    for (const status of [408, 429, 500, 502, 503, 504])
      expect(shouldRetryStatus(status, 'idempotent')).toBe(true);
    for (const status of [400, 401, 402, 404, 409, 422])
      expect(shouldRetryStatus(status, 'idempotent')).toBe(false);
    expect([429, 500, 502, 503].filter((s) => shouldRetryStatus(s, 'unsafe'))).toEqual([429]);
  });

  it('backs off from 0.5 s doubling to 8 s, jitter never below half', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
    expect([1, 5].map((n) => backoffDelayMs(n, () => 0))).toEqual([250, 4000]);
  });
});
