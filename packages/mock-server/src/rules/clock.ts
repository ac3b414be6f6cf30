// The mock's virtual clock: real time plus an offset that tests move forward.
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

export function createClock(source: () => number = Date.now): Clock {
  let offset = 0;
  const now = () => Math.min(source() + offset, MAX_CLOCK_MS);
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
      const stopped = source() + offset + ms > MAX_CLOCK_MS;
      offset = stopped ? MAX_CLOCK_MS - source() : offset + ms;
      return stopped;
    },
  };
}
