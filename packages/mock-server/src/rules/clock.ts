// The mock's virtual clock: real time plus an offset that tests move forward.
/**
 * The latest time the clock may show: what a `Date` holds (8.64e15 ms, +275760-09-13)
 * less ten years, so that everything scheduled from it (job times, 24 h key expiry) can
 * still be written as a date.
 */
export const MAX_CLOCK_MS = 8.64e15 - 10 * 365 * 86_400_000;

export interface Clock {
  now(): number;
  /** Throws RangeError, and moves nothing, if the clock would pass MAX_CLOCK_MS. */
  advance(ms: number): void;
}

export function createClock(source: () => number = Date.now): Clock {
  let offset = 0;
  return {
    now: () => source() + offset,
    advance(ms) {
      if (source() + offset + ms > MAX_CLOCK_MS) {
        throw new RangeError(
          `Would move the clock past ${new Date(MAX_CLOCK_MS).toISOString()}, the latest time the mock keeps`,
        );
      }
      offset += ms;
    },
  };
}
