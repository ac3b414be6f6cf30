import { describe, expect, it, vi } from 'vitest';
import { anySignal, sleep, timeoutSignal } from './abort.js';

describe('anySignal', () => {
  it('passes none or one signal through without a new controller', () => {
    expect(anySignal([undefined, undefined]).signal).toBeUndefined();
    const one = new AbortController();
    expect(anySignal([undefined, one.signal]).signal).toBe(one.signal);
  });

  it('aborts with the reason of whichever signal aborts first', () => {
    const a = new AbortController();
    const b = new AbortController();
    const { signal, dispose } = anySignal([a.signal, b.signal]);
    b.abort(new Error('b'));
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toEqual(new Error('b'));
    dispose();
  });

  it('is aborted at once when a given signal already is', () => {
    const a = new AbortController();
    a.abort('early');
    expect(anySignal([a.signal, new AbortController().signal]).signal?.reason).toBe('early');
  });
});

describe('sleep and timeoutSignal', () => {
  it('sleep rejects with the reason the moment the signal aborts', async () => {
    // Fake timers: "the moment" is exact (no clock time beyond the 20 ms timeout), and a busy
    // machine cannot make the test late.
    vi.useFakeTimers();
    try {
      const { signal, dispose } = timeoutSignal(20, () => new Error('late'));
      let settled: unknown;
      sleep(10_000, signal).then(
        () => (settled = 'resolved'),
        (error: Error) => (settled = error.message),
      );
      await vi.advanceTimersByTimeAsync(19);
      expect(settled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe('late');
      expect(vi.getTimerCount()).toBe(0); // the 10 s timer is cleared, not left to run
      dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a wait longer than a timer holds is held to the longest one, not run after 1 ms', async () => {
    // Real timers: the overflow is Node's. A 1 ms timer would fire before the 20 ms one below,
    // whatever the machine's load; timers fire in the order they are due.
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const controller = new AbortController();
    try {
      let ended = false;
      const long = sleep(2 ** 40, controller.signal).then(() => (ended = true));
      const timed = timeoutSignal(2 ** 40, () => new Error('fired'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(ended).toBe(false);
      expect(timed.signal.aborted).toBe(false);
      timed.dispose();
      controller.abort(new Error('done'));
      await long.catch(() => {});
      expect(warnings.filter((w) => w.name === 'TimeoutOverflowWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
