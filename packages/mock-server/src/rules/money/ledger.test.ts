import { describe, expect, it } from 'vitest';
import { createLedger } from './ledger.js';

describe('ledger', () => {
  it('charges only what the balance covers and records every movement with its reason', () => {
    const ledger = createLedger(new Map([['a', 100]]));
    expect(
      ledger.take('a', 100, 'reservation', { reason: 'generate', jobId: 'job-1', profileId: 'ada' }, 1),
    ).toBe(true);
    expect(ledger.take('a', 1, 'charge', { reason: 'read', profileId: 'ada' }, 2)).toBe(false);
    expect(ledger.balance('a')).toBe(0);
    ledger.add('a', 100, 'refund', { reason: 'job-failed', jobId: 'job-1', profileId: 'ada' }, 3);
    ledger.add('a', 50, 'purchase', { reason: 'checkout-paid', sessionId: 'cs' }, 4);
    ledger.settle('a', 100, { reason: 'job-succeeded', jobId: 'job-2' }, 5);
    expect(ledger.balance('a')).toBe(150);
    expect(ledger.entries().map((e) => [e.seq, e.kind, e.reason, e.delta, e.balance, e.jobId])).toEqual([
      [1, 'reservation', 'generate', -100, 0, 'job-1'],
      [2, 'refund', 'job-failed', 100, 100, 'job-1'],
      [3, 'purchase', 'checkout-paid', 50, 150, null],
      [4, 'charge', 'job-succeeded', 0, 150, 'job-2'],
    ]);
    expect(ledger.totals('a')).toEqual({
      opening: 100,
      purchased: 50,
      reserved: 100,
      refunded: 100,
      jobCharges: 100,
      readCharges: 0,
      balance: 150,
    });
  });

  it('keeps totals exact after the entries have been trimmed', () => {
    const ledger = createLedger(new Map([['a', 0]]));
    for (let i = 0; i < 25_000; i++) ledger.add('a', 1, 'purchase', { reason: 'checkout-paid' }, i);
    expect(ledger.log.size).toBe(10_000);
    expect(ledger.entries()[0]!.seq).toBe(15_001);
    expect(ledger.totals('a')).toMatchObject({ purchased: 25_000, balance: 25_000 });
  });
});
