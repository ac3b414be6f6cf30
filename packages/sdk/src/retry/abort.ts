// Waits and signals that every runtime with fetch has, without AbortSignal.any (absent on older ones),
// and the SDK's one way to start a timer.

const noop = () => {};

/**
 * The longest wait a timer holds (about 24.8 days). Node and browsers run a longer timer after
 * 1 ms instead, which would turn a huge timeout into none and a huge wait into a busy loop that
 * uses up the account's rate window.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * setTimeout with its delay held from 0 to MAX_TIMER_MS (NaN as 0). Every timer of the SDK starts
 * here (timer-limits.test.ts checks): options past the limit are refused where they are read and a
 * server's wait past `maxRetryDelayMs` is never taken, and this is what holds should one slip by.
 */
export function startTimer<A extends unknown[]>(
  callback: (...args: A) => void,
  ms: number,
  ...args: A
): ReturnType<typeof setTimeout> {
  return setTimeout(callback, ms > 0 ? Math.min(ms, MAX_TIMER_MS) : 0, ...args);
}

/**
 * One signal that aborts when any of the given ones does, with that one's reason.
 * With none given: undefined, and with one: that one, so the common call costs nothing.
 */
export function anySignal(signals: ReadonlyArray<AbortSignal | undefined>): {
  signal: AbortSignal | undefined;
  dispose: () => void;
} {
  const given = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (given.length <= 1) return { signal: given[0], dispose: noop };
  const controller = new AbortController();
  const cleanups: Array<() => void> = [];
  for (const signal of given) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => signal.removeEventListener('abort', onAbort));
  }
  const dispose = () => {
    for (const cleanup of cleanups) cleanup();
  };
  return { signal: controller.signal, dispose };
}

/** A signal that aborts after `ms` with the given reason. */
export function timeoutSignal(
  ms: number,
  reason: () => unknown,
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const timer = startTimer(() => controller.abort(reason()), ms);
  return { signal: controller.signal, dispose: () => clearTimeout(timer) };
}

/** Resolves after `ms`, or rejects with the signal's reason the moment it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = startTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * For a wait with a bound: a signal that aborts with the caller's reason, or with `reason()` once
 * `ms` have passed. `dispose` when the wait is over.
 */
export function boundedSignal(
  signal: AbortSignal | undefined,
  ms: number,
  reason: () => unknown,
): { signal: AbortSignal; dispose: () => void } {
  const timeout = timeoutSignal(ms, reason);
  const any = anySignal([signal, timeout.signal]);
  return {
    signal: any.signal ?? timeout.signal,
    dispose: () => {
      any.dispose();
      timeout.dispose();
    },
  };
}

/**
 * `promise`, or a rejection with the signal's reason the moment it aborts: a fetch that ignores
 * its request's signal still ends at the attempt's time limit.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).then(() => signal.removeEventListener('abort', onAbort));
  });
}
