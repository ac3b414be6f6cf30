// verify's budget for a whole run (limits.ts's runBudgetMs). Every request and wait is bounded
// on its own, but not their number: a server answering 429 Retry-After: 60 to everything made a
// run take hours. Once the budget is out, no request is sent and no wait begun (a wait under way
// ends at once): the check under way is cut short, and the run reports what it found.
import { durationText, type Timer } from './limits.js';

export class OutOfTimeError extends Error {
  override name = 'OutOfTimeError';
}

interface RunBudget {
  /** Throws OutOfTimeError once the budget is out. */
  check: () => void;
  /** `wait` that refuses to start, and stops, once the budget is out. */
  guardWait: (wait: (ms: number) => Promise<void>) => (ms: number) => Promise<void>;
  /** `verify's run budget of 15 minutes ran out`. */
  readonly message: string;
  expired: () => boolean;
  stop: () => void;
}

export function startRunBudget(ms: number, timer: Timer): RunBudget {
  let expired = false;
  let wake: () => void = () => {};
  const woken = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const stop = timer(ms, () => {
    expired = true;
    wake();
  });
  const message = `verify's run budget of ${durationText(ms)} ran out`;
  const check = () => {
    if (expired) throw new OutOfTimeError(message);
  };
  return {
    check,
    guardWait: (wait) => async (waitMs) => {
      check();
      await Promise.race([wait(waitMs), woken]);
      check();
    },
    message,
    expired: () => expired,
    stop,
  };
}
