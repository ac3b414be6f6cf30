// Ids under --data. A restart rebuilds the state by replaying the journal's records, so every id
// must come out the same the second time: a job's or a checkout's id is the data folder's
// secret seed and a counter (commands replay in the order they were answered), an article's is
// the seed, the number of resets so far and its profile (an article is first published by an
// event, and events due at the same millisecond need not run in the same order after a restart).
// Version 4 UUIDs in form, as randomUUID makes them; nothing outside can guess the next.
import { createHash } from 'node:crypto';

export interface IdState {
  seed: string;
  counter: number;
  /** Resets so far: an article after a reset is a new one, with a new id. */
  epoch: number;
}

export interface DataIds {
  next(): string;
  article(profileId: string): string;
  reset(): void;
  state(): IdState;
  /** Back to `saved`: the data folder undoing changes it could not write, before a replay. */
  restore(saved: IdState): void;
}

function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  // Copied into a flat string (see rules/flat-ids.ts): the slices would keep the hash alive.
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return JSON.parse(JSON.stringify(id)) as string;
}

/** The id the counter's `counter`th call of next() gives, for --data-recover's realignment. */
export const idAt = (seed: string, counter: number) => uuidOf(`${seed}:${counter}`);

export function createDataIds(saved: IdState): DataIds {
  let { seed, counter, epoch } = saved;
  return {
    next: () => idAt(seed, counter++),
    article: (profileId) => uuidOf(`${seed}:article:${epoch}:${profileId}`),
    reset: () => {
      epoch++;
    },
    state: () => ({ seed, counter, epoch }),
    restore: (saved) => {
      ({ seed, counter, epoch } = saved);
    },
  };
}
