// Client-side pacing: keeps this client's requests within the account's "N requests in any
// 60 s" window, so a burst of concurrent calls (polls included) waits here instead of
// collecting 429s from the server.
//
// The window is a log of when each request's answer arrived. The server counts a request
// when it arrives, which is after we sent it and before we hear back, so a slot is held from
// the moment it is granted until 60 s after the answer: never earlier than the server frees it.

import { startTimer } from './abort.js';

/** `'auto'`: the account's `requests_per_minute`, read from the balance endpoint; a number: that many per minute; `false`: off. */
export type Pacing = 'auto' | number | false;

const PACING_WINDOW_MS = 60_000;

export interface Pacer {
  /**
   * Waits until a request may go out, then resolves with `release`, to call once its answer
   * (or failure) is in. `since` orders waiters: the smallest goes first (default: now).
   * Rejects at once with the signal's reason on abort.
   */
  acquire(signal: AbortSignal | undefined, since?: number): Promise<() => void>;
  /** Counts a request that may not wait (the limit read of `'auto'`); returns its release. */
  take(): () => void;
  /**
   * The server answered 429: hold every request for `retryAfterMs` (1 s when undefined); `'auto'`
   * reads the limit again. The transport passes only a wait it takes (retry.ts's rule): a longer
   * one fails its call at once and holds the others for 1 s, not for what the server said.
   */
  rateLimited(retryAfterMs: number | undefined): void;
}

interface PacerOptions {
  /** Requests per window, or how to read it (called again after a 429). */
  limit: number | (() => Promise<number>);
  now?: () => number;
  windowMs?: number;
}

interface Waiter {
  since: number;
  seq: number;
  grant: () => void;
}

export function createPacer(options: PacerOptions): Pacer {
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? PACING_WINDOW_MS;
  const readLimit = typeof options.limit === 'function' ? options.limit : undefined;
  let limit: number | undefined = typeof options.limit === 'number' ? options.limit : undefined;
  let reading = false;
  let pausedUntil = 0;
  let inFlight = 0;
  // Answer times, oldest first, from `head` on: the requests still inside the window.
  let answered: number[] = [];
  let head = 0;
  const waiters: Waiter[] = [];
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function forgetOld(time: number) {
    while (head < answered.length && answered[head]! <= time - windowMs) head++;
    if (head > 256 && head * 2 > answered.length) {
      answered = answered.slice(head);
      head = 0;
    }
  }

  function release() {
    inFlight--;
    answered.push(now());
    pump();
  }

  function releaseOnce(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  }

  function startLimitRead() {
    if (reading || !readLimit) return;
    reading = true;
    readLimit().then(
      (value) => {
        reading = false;
        limit = Math.max(1, Math.floor(value));
        pump();
      },
      () => {
        // The request itself will meet the same trouble and report it; pace at one a second meanwhile.
        reading = false;
        limit = Math.max(1, Math.floor(windowMs / 1000));
        pump();
      },
    );
  }

  function schedule(at: number) {
    if (timer !== undefined) clearTimeout(timer);
    const waitMs = Math.max(0, at - now());
    timer = startTimer(() => {
      timer = undefined;
      pump();
    }, waitMs);
  }

  function pump() {
    while (waiters.length > 0) {
      const time = now();
      if (time < pausedUntil) return schedule(pausedUntil);
      if (limit === undefined) return startLimitRead();
      forgetOld(time);
      const used = inFlight + answered.length - head;
      if (used >= limit) {
        // Full: a slot frees when the oldest answer leaves the window, or when one in flight answers.
        if (head < answered.length) schedule(answered[head]! + windowMs);
        return;
      }
      const next = waiters.shift()!;
      inFlight++;
      next.grant();
    }
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  }

  return {
    acquire(signal, since) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const onAbort = () => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(signal?.reason);
          pump();
        };
        const waiter: Waiter = {
          since: since ?? now(),
          seq: seq++,
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(releaseOnce());
          },
        };
        // Oldest `since` first; equal ones in arrival order.
        let at = waiters.length;
        while (at > 0 && compare(waiters[at - 1]!, waiter) > 0) at--;
        waiters.splice(at, 0, waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
        pump();
      });
    },
    take() {
      inFlight++;
      return releaseOnce();
    },
    rateLimited(retryAfterMs) {
      pausedUntil = Math.max(pausedUntil, now() + (retryAfterMs ?? 1000));
      if (readLimit) limit = undefined;
    },
  };
}

function compare(a: Waiter, b: Waiter): number {
  return a.since - b.since || a.seq - b.seq;
}
