import type { Account } from '../rules/money/accounts.js';
import type { MockState } from '../state/state.js';

/** What every operation gets: the state, the caller's account and the virtual time. */
export interface OperationContext {
  state: MockState;
  account: Account;
  now: number;
}
