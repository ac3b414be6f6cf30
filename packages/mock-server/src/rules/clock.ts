// The mock's virtual clock: real time plus an offset that tests move forward.
export interface Clock {
  now(): number;
  advance(ms: number): void;
}

export function createClock(source: () => number = Date.now): Clock {
  let offset = 0;
  return {
    now: () => source() + offset,
    advance(ms) {
      offset += ms;
    },
  };
}
