// Which commands cost credits, and what one run of each costs on an account's pricing.
import type { Pricing } from '@profile-articles/sdk';

/** The commands that cost credits, each named as the pricing's field prices it. */
type PaidOperation = 'read' | 'generate' | 'update';

export const isPaidOperation = (command: string): command is PaidOperation =>
  command === 'read' || command === 'generate' || command === 'update';

/** What one run of `operation` costs on this account (a read, or a generation for both others). */
export function costOf(operation: PaidOperation, pricing: Pricing): number {
  return operation === 'read' ? pricing.read_credits : pricing.generation_credits;
}

/**
 * What a budget holds for one run of `operation`: the account's price, but never below the
 * interface's default (1 a read, 100 a generation), as the SDK's spendLimit does. A balance is
 * the server's word, not a charge: one that advertises less than it takes (a lie, or a
 * discount) must not let more requests out at once than the budget covers.
 */
export const budgetedCostOf = (operation: PaidOperation, pricing: Pricing): number =>
  Math.max(costOf(operation, pricing), operation === 'read' ? 1 : 100);
