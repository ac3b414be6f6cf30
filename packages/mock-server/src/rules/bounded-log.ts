// The one bounded log behind the request journal and the credit ledger: a ring buffer of
// the most recent `capacity` records. Recording is O(1) and the memory never grows past
// `capacity`, whatever the traffic; `total` still counts everything ever recorded.
export interface BoundedLog<T> {
  push(record: T): void;
  /** Oldest first. */
  entries(): T[];
  /** Records held now: never more than `capacity`. */
  readonly size: number;
  /** Records ever pushed, the dropped ones included. */
  readonly total: number;
  readonly capacity: number;
}

export function createBoundedLog<T>(capacity: number): BoundedLog<T> {
  if (!Number.isInteger(capacity) || capacity < 1)
    throw new RangeError('capacity must be a positive integer');
  const ring: T[] = [];
  let total = 0;
  return {
    push(record) {
      ring[total % capacity] = record;
      total++;
    },
    entries() {
      if (total <= capacity) return ring.slice();
      const start = total % capacity;
      return [...ring.slice(start), ...ring.slice(0, start)];
    },
    get size() {
      return ring.length;
    },
    get total() {
      return total;
    },
    capacity,
  };
}
