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
  /** Back to what a saved log held: its newest entries (oldest first) and its total. */
  restore(entries: readonly T[], total: number): void;
}

function checkCapacity(capacity: number): void {
  if (!Number.isInteger(capacity) || capacity < 1)
    throw new RangeError('capacity must be a positive integer');
}

export function createBoundedLog<T>(capacity: number): BoundedLog<T> {
  checkCapacity(capacity);
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
    restore(entries, savedTotal) {
      ring.length = 0;
      total = savedTotal - entries.length;
      for (const entry of entries) this.push(entry);
    },
  };
}

/**
 * A bounded log that keeps each field of its records in an array of its own, the fields in
 * `fields`' order (the order `entries()` gives them back in). Recording copies the fields in,
 * and the record object dies young: a log whose records live long (the ledger keeps 10,000)
 * then promotes nothing per record to the heap's old generation, where every promoted object
 * is one more for the next full collection to sweep.
 */
export function createColumnarLog<T extends object>(
  capacity: number,
  fields: ReadonlyArray<keyof T>,
): BoundedLog<T> {
  checkCapacity(capacity);
  const columns = fields.map(() => [] as unknown[]);
  let total = 0;
  const at = (slot: number): T => {
    const record = {} as T;
    fields.forEach((field, i) => {
      record[field] = columns[i]![slot] as T[keyof T];
    });
    return record;
  };
  return {
    push(record) {
      const slot = total % capacity;
      for (let i = 0; i < fields.length; i++) columns[i]![slot] = record[fields[i]!];
      total++;
    },
    entries() {
      const size = Math.min(total, capacity);
      const start = total <= capacity ? 0 : total % capacity;
      return Array.from({ length: size }, (_, i) => at((start + i) % capacity));
    },
    get size() {
      return Math.min(total, capacity);
    },
    get total() {
      return total;
    },
    capacity,
    restore(entries, savedTotal) {
      // Each entry lands in the slot its position among every entry gives it, as push puts it.
      total = savedTotal - entries.length;
      for (const entry of entries) this.push(entry);
    },
  };
}
