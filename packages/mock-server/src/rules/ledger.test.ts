import { describe, expect, it } from 'vitest';
import { createLedger } from './ledger.js';

describe('ledger', () => {
  it('charges only what the balance covers and records every movement', () => {
    const ledger = createLedger(new Map([['a', 100]]));
    expect(ledger.charge('a', 100, 'reserve', 'job-1', 1)).toBe(true);
    expect(ledger.charge('a', 1, 'read', 'p', 2)).toBe(false);
    expect(ledger.balance('a')).toBe(0);
    ledger.add('a', 100, 'refund', 'job-1', 3);
    ledger.add('a', 50, 'purchase', 'cs', 4);
    expect(ledger.balance('a')).toBe(150);
    expect(ledger.entries().map((e) => [e.reason, e.delta, e.balance])).toEqual([
      ['reserve', -100, 0],
      ['refund', 100, 100],
      ['purchase', 50, 150],
    ]);
  });
});
