import type { Account } from '../rules/accounts.js';
import type { MockState } from '../state.js';

/** What every operation gets: the state, the caller's account and the virtual time. */
export interface OperationContext {
  state: MockState;
  account: Account;
  now: number;
}
