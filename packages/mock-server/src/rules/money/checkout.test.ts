import { describe, expect, it } from 'vitest';
import { createCheckouts } from './checkout.js';
import { createLedger } from './ledger.js';

describe('checkout sessions', () => {
  it('price credits, start unpaid, and add credits exactly once', () => {
    const ledger = createLedger(new Map([['a', 10]]));
    const checkouts = createCheckouts(ledger, () => '11111111-2222-4333-8444-555555555555');
    const session = checkouts.create('a', 200, 5);
    expect(session).toMatchObject({
      id: 'cs_test_11111111222243338444555555555555',
      credits: 200,
      amountCents: 1000,
      paid: false,
    });
    expect(ledger.balance('a')).toBe(10);
    expect(checkouts.pay(session.id, 1)).toBe('paid');
    expect(checkouts.pay(session.id, 2)).toBe('already-paid');
    expect(checkouts.pay('cs_missing', 3)).toBe('not-found');
    expect(ledger.balance('a')).toBe(210);
  });
});
