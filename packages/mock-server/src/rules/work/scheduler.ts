// Due-time events on the virtual clock, kept in a binary heap. Nothing waits on a timer:
// every request first runs what has come due, so state is always current and tests are
// deterministic. Each event costs O(log n) once, whatever else is stored. An event that
// throws is reported to `onError` and skipped: the request that happened to run it is
// not the one at fault, and the events after it still run.
interface ScheduledEvent {
  at: number;
  seq: number;
  run: (at: number) => void;
}

export interface Scheduler {
  at(time: number, run: (at: number) => void): void;
  runDue(now: number): void;
  readonly size: number;
  /** Events run so far: the dashboard's event stream watches it to learn that something moved. */
  readonly ran: number;
}

function before(a: ScheduledEvent, b: ScheduledEvent): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

export function createScheduler(onError: (error: unknown) => void = () => {}): Scheduler {
  const heap: ScheduledEvent[] = [];
  let seq = 0;
  let ran = 0;

  function push(event: ScheduledEvent): void {
    heap.push(event);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  function pop(): ScheduledEvent | undefined {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
        i = smallest;
      }
    }
    return top;
  }

  return {
    at(time, run) {
      push({ at: time, seq: seq++, run });
    },
    runDue(now) {
      // Events run in time order, each at its own time, so a job that finished an hour
      // ago (virtually) wrote its article before anything later happened.
      while (heap.length && heap[0]!.at <= now) {
        const event = pop()!;
        ran++;
        try {
          event.run(event.at);
        } catch (error) {
          onError(error);
        }
      }
    },
    get size() {
      return heap.length;
    },
    get ran() {
      return ran;
    },
  };
}
