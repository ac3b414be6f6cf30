// Waits and signals that every runtime with fetch has, without AbortSignal.any (absent on older ones).

const noop = () => {};

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
  const timer = setTimeout(() => controller.abort(reason()), ms);
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
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
