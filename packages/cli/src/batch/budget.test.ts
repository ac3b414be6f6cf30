import { describe, expect, it } from 'vitest';
import { Budget } from './budget.js';

describe('Budget', () => {
  it('holds a reservation until it is settled, waits for a refund, and stops when nothing is running', async () => {
    const budget = new Budget({ maxCredits: 250, balance: 10_000, committed: 0 });
    expect(await budget.reserve(100)).toBeUndefined();
    expect(await budget.reserve(100)).toBeUndefined();
    const third = budget.reserve(100);
    budget.settle(100, 0); // the first job failed and was refunded: room for the third
    expect(await third).toBeUndefined();
    const fourth = budget.reserve(100);
    budget.settle(100, 100);
    budget.settle(100, 100);
    expect(await fourth).toBe('budget');
    expect(budget.committed).toBe(200);
  });

  it('counts what earlier runs spent, and stops at the balance', async () => {
    expect(await new Budget({ maxCredits: 250, balance: 10_000, committed: 200 }).reserve(100)).toBe(
      'budget',
    );
    expect(await new Budget({ maxCredits: undefined, balance: 150, committed: 0 }).reserve(200)).toBe(
      'balance',
    );
  });
});
