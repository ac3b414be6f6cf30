import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchReporter } from './report.js';

afterEach(() => vi.useRealTimers());

/** A reporter on a terminal, and the progress line it shows last. */
function onTerminal(toRun: number) {
  let stderr = '';
  const stream = { isTTY: true, write: (chunk: string) => (stderr += chunk) };
  const reporter = new BatchReporter(
    { stdout: stream, stderr: stream, stdin: process.stdin, env: {} },
    'tty',
    toRun,
  );
  return { reporter, line: () => stderr.slice(stderr.lastIndexOf('done ')) };
}

const end = (profileId: string) =>
  ({
    type: 'end',
    profile_id: profileId,
    status: 'succeeded',
    credits_charged: 100,
    at: new Date().toISOString(),
  }) as const;

describe('BatchReporter', () => {
  it('shows the ETA as ? once a running profile has waited past the longest turn seen, not a stale 4s', () => {
    vi.useFakeTimers();
    const { reporter, line } = onTerminal(3);
    reporter.started('a', 'job-a', false);
    reporter.started('stuck', 'job-stuck', false);
    vi.advanceTimersByTime(4000);
    reporter.ended(end('a'), true);
    reporter.started('c', 'job-c', false);
    expect(line()).toMatch(/ · ETA \d+s$/);
    vi.advanceTimersByTime(3000);
    reporter.ended(end('c'), true);
    // The stuck profile has run 7 s; no turn took more than 4 s: its end cannot be estimated.
    vi.advanceTimersByTime(1000);
    expect(line()).toMatch(/ · ETA \?$/);
    vi.advanceTimersByTime(30 * 60_000);
    expect(line()).toMatch(/ · ETA \?$/);
    reporter.ended(end('stuck'), true);
    expect(line()).not.toContain('ETA');
  });
});
