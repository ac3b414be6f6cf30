import type { Account } from '../rules/money/accounts.js';
import type { JobTimes } from '../rules/work/jobs.js';
import type { MockState } from '../state/state.js';

/** What every operation gets: the state, the caller's account and the virtual time. */
export interface OperationContext {
  state: MockState;
  account: Account;
  now: number;
  /** What a stub asked of the job this request starts: its timings, or the error it fails with. */
  job?: { times?: JobTimes; failure?: string };
}
