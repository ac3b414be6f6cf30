// The state and the clock as one holder that outlives a reset. Routes are built once, before
// any request, and hold this; `reset` builds a new state and clock inside it, so nothing has
// to reach for a service that does not exist yet when the routes are made.
// With --data it also starts from what the data folder holds and tells the folder of each
// change (data/records.ts); the folder itself is the adapter's (data/folder.ts).
import type { NormalizedConfig } from '../config/config.js';
import { CLOCK_LIMIT_TEXT, type Clock, createClock, globalNow } from '../rules/clock.js';
import { createState, type MockState, seedConfigArticles } from '../state/state.js';
import type { DataIds } from './ids.js';
import { applyRecord, type DataRecord, recordChanges } from './records.js';
import { dumpState, loadState, type Snapshot } from './snapshot.js';

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
  /** With --data: the state as a snapshot that starts journal generation `generation`. */
  snapshot(generation: number): Snapshot;
}

/** What --data gives the live state: the folder's contents, its id source and its journal. */
export interface LiveData {
  ids: DataIds;
  /** Appends a change to the journal (durable before the answer leaves: the service waits). */
  record(change: DataRecord): void;
  snapshot: Snapshot | undefined;
  /** The journal's records written since the snapshot, oldest first. */
  records: readonly DataRecord[];
  /**
   * Called once the state is built, with what takes its snapshots (the folder compacts with it)
   * and what rebuilds the state from `snapshot` and `records` again (the folder undoing changes
   * it could not write, after setting both to what is on disk).
   */
  attach(snapshot: (generation: number) => Snapshot, rebuild: () => void): void;
  /** Tells the person starting the mock what the start did (stderr). */
  note?(line: string): void;
}

interface LiveStateOptions {
  now?: (() => number) | undefined;
  newId: () => string;
  onError: (error: unknown) => void;
  data?: LiveData | undefined;
}

export function createLiveState(config: NormalizedConfig, options: LiveStateOptions): LiveState {
  const { data } = options;
  // Read at every call (rules/clock.ts): fake timers turned on later are followed.
  const source = options.now ?? globalNow;
  // Off while the folder's records are replayed: they are in the journal already.
  let recording = false;
  const record = (change: DataRecord) => {
    if (recording) data?.record(change);
  };
  // Without --data a built state holds the config's articles; with it, a fresh folder and a
  // reset seed them as records (below), and a start replays those records instead.
  const build = () => {
    if (!data) {
      const built = createState(config, options.newId, options.onError);
      seedConfigArticles(built, clock.now());
      return built;
    }
    const built = createState(config, data.ids.next, options.onError, data.ids.article);
    recordChanges(built, record);
    return built;
  };
  let clock: Clock = createClock(source);
  let state = build();
  /** The state from the folder's snapshot and records, as a start replays them. */
  const load = (data: LiveData) => {
    let latest = -Infinity;
    // What the folder kept may carry the clock past its limit (real time has run on since):
    // the start then stops it there, rather than refusing every start of the folder.
    let stopped = false;
    if (data.snapshot) {
      loadState(state, data.snapshot);
      stopped = clock.advanceUpToLimit(data.snapshot.clock.offset) || stopped;
      latest = data.snapshot.clock.latest;
    }
    for (const change of data.records) {
      if (change.t === 'advance') stopped = clock.advanceUpToLimit(change.ms) || stopped;
      else if (change.t === 'skip') for (let i = 0; i < change.ids; i++) data.ids.next();
      else if (change.t === 'reset') {
        data.ids.reset();
        clock = createClock(source);
        state = build();
        latest = -Infinity; // a reset sets the clock back to real time
      } else {
        applyRecord(state, change);
        if ('at' in change) latest = Math.max(latest, change.at);
      }
    }
    // The clock runs on while the mock is stopped, as the service's would (docs/decisions/0009):
    // a job due during the gap has ended, a key older than 24 h has expired. It never runs
    // backwards: a machine's clock set back resumes from the latest time the mock had shown.
    if (clock.now() < latest) stopped = clock.advanceUpToLimit(latest - clock.now()) || stopped;
    if (stopped)
      data.note?.(
        `Data folder: the clock it kept would pass ${CLOCK_LIMIT_TEXT}, the latest time the mock keeps; it starts at ${CLOCK_LIMIT_TEXT}`,
      );
  };
  if (data) {
    load(data);
    recording = true;
    // A folder that holds nothing yet gets the config's articles; one that holds anything keeps
    // what it holds (a later config's articles never go over the folder's).
    if (!data.snapshot && data.records.length === 0) seedConfigArticles(state, clock.now());
  }
  let moves = 0;
  const now = () => {
    const time = clock.now();
    state.scheduler.runDue(time);
    return time;
  };
  const live: LiveState = {
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
      record({ t: 'advance', ms });
      moves++;
      now();
    },
    reset() {
      moves++;
      data?.ids.reset();
      record({ t: 'reset' });
      clock = createClock(source);
      state = build();
      if (data) seedConfigArticles(state, clock.now());
    },
    snapshot(generation) {
      if (!data) throw new Error('Only a mock with --data takes snapshots');
      const at = clock.now();
      return dumpState(state, {
        generation,
        ids: data.ids.state(),
        clock: { offset: at - source(), latest: at },
      });
    },
  };
  // What no record holds (the request journal and its counters, fault rules, stubs, rate
  // windows, refusals) is kept.
  const rebuild = (from: LiveData) => {
    const { journal, requestCounts, faults, stubs, rateLimiter, refusals } = state;
    recording = false;
    clock = createClock(source);
    state = build();
    load(from);
    Object.assign(state, { journal, requestCounts, faults, stubs, rateLimiter, refusals });
    recording = true;
    moves++;
  };
  data?.attach(live.snapshot, () => rebuild(data));
  return live;
}
