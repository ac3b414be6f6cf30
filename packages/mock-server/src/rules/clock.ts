// The mock's virtual clock: real time plus an offset that tests move forward. Real time is
// `Date.now()` looked up at every reading, never a function captured at import or
// construction: a test runner's fake timers (vi.useFakeTimers, jest's, sinon's) replace the
// global Date, and a mock made before they were turned on must follow them too.
/**
 * The latest time the clock may show: what a `Date` holds (8.64e15 ms, +275760-09-13)
 * less ten years, so that everything scheduled from it (job times, 24 h key expiry) can
 * still be written as a date.
 */
export const MAX_CLOCK_MS = 8.64e15 - 10 * 365 * 86_400_000;

export interface Clock {
  /** Never past MAX_CLOCK_MS: real time that carries the clock there stops there. */
  now(): number;
  /** Throws RangeError, and moves nothing, if the clock would pass MAX_CLOCK_MS. */
  advance(ms: number): void;
  /** Moves the clock by `ms`, or to MAX_CLOCK_MS if that is nearer; whether it stopped there. */
  advanceUpToLimit(ms: number): boolean;
}

export const CLOCK_LIMIT_TEXT = new Date(MAX_CLOCK_MS).toISOString();

/** The time the test sees: whatever `Date` is global when asked. */
export const globalNow = (): number => Date.now();

export function createClock(source: () => number = globalNow): Clock {
  let offset = 0;
  /** The latest time shown (before the limit): the clock never shows an earlier one. */
  let shown = Number.NEGATIVE_INFINITY;
  const now = () => {
    let time = source() + offset;
    // The source stepped back (fake timers turned off after they ran ahead, vi.setSystemTime
    // to an earlier date, the machine's clock set back): the clock goes on from where it was,
    // so a job due at a time it has shown is never pushed back into the future.
    if (time < shown) {
      offset += shown - time;
      time = shown;
    }
    shown = time;
    return Math.min(time, MAX_CLOCK_MS);
  };
  return {
    now,
    advance(ms) {
      if (now() + ms > MAX_CLOCK_MS) {
        throw new RangeError(
          `Would move the clock past ${CLOCK_LIMIT_TEXT}, the latest time the mock keeps (MAX_CLOCK_MS)`,
        );
      }
      offset += ms;
    },
    advanceUpToLimit(ms) {
      now(); // takes in a step back of the source first
      const stopped = source() + offset + ms > MAX_CLOCK_MS;
      offset = stopped ? MAX_CLOCK_MS - source() : offset + ms;
      return stopped;
    },
  };
}
