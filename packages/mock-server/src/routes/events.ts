// GET /_mock/events: the dashboard's server-sent events. The stream says only *that* something
// changed (`event: change`, with the clock's time); the page then reads the views it shows.
// Nothing on the hot path knows of it: while a stream is open, a timer compares a handful of
// counters the rules keep anyway, and with nobody watching there is no timer at all.
import type { LiveState } from '../data/live-state.js';

/** How often an open stream looks for changes: live to a person, a few counters per look. */
const EVENTS_POLL_MS = 200;
/** A comment line this often keeps proxies and the page's reader from taking the stream for dead. */
const KEEP_ALIVE_MS = 15_000;

/** What the dashboard shows changes only if one of these does. */
function fingerprint(live: LiveState): unknown[] {
  live.now(); // runs what has come due: jobs move on though no request comes
  const { state } = live;
  return [
    state, // a reset builds a new state
    live.moves,
    state.journal.log.total,
    state.ledger.log.total,
    state.jobs.size,
    state.scheduler.ran,
    state.checkouts.size,
    state.faults.config(),
    state.stubs.active,
    state.stubs.matched,
  ];
}

const encoder = new TextEncoder();
/** Events queued and unread before the stream gives up on its reader. */
const MAX_UNREAD = 64;

export function eventStream(live: LiveState, requestId: string): Response {
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => clearInterval(timer);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let last: unknown[] = [];
      let quietFor = 0;
      const send = (text: string) => {
        try {
          // A reader that stopped reading (a transport that never cancels) gets no more than a
          // few unread events queued: the stream ends instead of growing.
          if ((controller.desiredSize ?? 0) < -MAX_UNREAD) {
            stop();
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(text));
        } catch {
          stop(); // the reader went away between two looks
        }
      };
      const look = () => {
        const now = fingerprint(live);
        if (now.some((value, i) => value !== last[i])) {
          last = now;
          quietFor = 0;
          send(
            `event: change\ndata: ${JSON.stringify({ now: new Date(live.clock.now()).toISOString() })}\n\n`,
          );
          return;
        }
        quietFor += EVENTS_POLL_MS;
        if (quietFor >= KEEP_ALIVE_MS) {
          quietFor = 0;
          send(': keep-alive\n\n');
        }
      };
      look();
      timer = setInterval(look, EVENTS_POLL_MS);
      // A stream must not keep a process alive that is otherwise done (a test, a closing server).
      (timer as { unref?: () => void }).unref?.();
    },
    cancel: stop,
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
    },
  });
}
