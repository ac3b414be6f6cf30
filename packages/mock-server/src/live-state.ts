// The state and the clock as one holder that outlives a reset. Routes are built once, before
// any request, and hold this; `reset` builds a new state and clock inside it, so nothing has
// to reach for a service that does not exist yet when the routes are made.
import type { NormalizedConfig } from './config.js';
import { type Clock, createClock } from './rules/clock.js';
import { createState, type MockState } from './state.js';

export interface LiveState {
  /** The state as it is, due events not run: for what only records or reads settings. */
  readonly state: MockState;
  /** The clock, read without running anything: what the journal stamps an answer with. */
  readonly clock: Pick<Clock, 'now'>;
  /** The clock's time, every due event run first: jobs move, keys expire. */
  now(): number;
  /** The state brought up to the clock. */
  current(): MockState;
  /** Throws RangeError, moving nothing, past the latest time the clock keeps (MAX_CLOCK_MS). */
  advance(ms: number): void;
  /** Back to the configured start state, the clock included. */
  reset(): void;
  /** Resets and clock advances so far: the dashboard's event stream watches it. */
  readonly moves: number;
}

interface LiveStateOptions {
  now?: (() => number) | undefined;
  newId: () => string;
  onError: (error: unknown) => void;
}

export function createLiveState(config: NormalizedConfig, options: LiveStateOptions): LiveState {
  let clock: Clock = createClock(options.now);
  let state = createState(config, options.newId, options.onError);
  let moves = 0;
  const now = () => {
    const time = clock.now();
    state.scheduler.runDue(time);
    return time;
  };
  return {
    get state() {
      return state;
    },
    get clock() {
      return clock;
    },
    now,
    current() {
      now();
      return state;
    },
    get moves() {
      return moves;
    },
    advance(ms) {
      clock.advance(ms);
      moves++;
      now();
    },
    reset() {
      moves++;
      clock = createClock(options.now);
      state = createState(config, options.newId, options.onError);
    },
  };
}
