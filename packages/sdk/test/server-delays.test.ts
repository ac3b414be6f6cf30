// A wait the server asks for (Retry-After, retry-after-ms) is hostile input: a delay above
// maxRetryDelayMs is never waited, by a retry, a poll or the pacer; the call fails at once with
// RateLimitError. Before this rule a poll's 429 with `Retry-After: 99999999` overflowed Node's
// timer to 1 ms: hundreds of polls a second and a TimeoutOverflowWarning each, for the whole wait.
import { once } from 'node:events';
import {
  ABSURD_WAITS,
  tooManyRequests,
  watchTimerOverflows,
} from '@profile-articles/test-utils/hostile-delays';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { JOB, reply, type Step } from '@profile-articles/test-utils/scripted-server';
import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../src/node.js';
import { MIN_SERVER_WAIT_MS } from '../src/retry/retry.js';
import { TRANSPORTS, useScriptedServers } from './scripted-client.js';

const BALANCE = {
  credits: 5,
  pricing: { generation_credits: 100, update_credits: 100, requests_per_minute: 60 },
};

/**
 * A step that stops the wait (through the returned signal) when a poll comes after the refused wait,
 * so that the failure shows at once instead of at the test's time limit.
 */
function stopOnPoll(answer: Step) {
  const controller = new AbortController();
  const step: Step = (res, req) => {
    controller.abort(new Error('polled again after a Retry-After above maxRetryDelayMs'));
    answer(res, req);
  };
  return { signal: controller.signal, step };
}

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const { setup } = useScriptedServers(options);
  const warnings = watchTimerOverflows();

  describe.each(ABSURD_WAITS)('%s', (_name, headers) => {
    it('on a poll: rejects with RateLimitError, polls no more, sets no overflowing timer', async () => {
      const again = stopOnPoll(tooManyRequests(headers));
      const { server, client } = await setup([reply(200, JOB), tooManyRequests(headers), again.step], {
        pollIntervalMs: 0,
      });
      const error = await rejectionOf(
        client.jobs.waitFor(JOB.job_id, { signal: again.signal }),
        RateLimitError,
      );
      expect(error.retryAfterSeconds).toBeGreaterThan(60);
      expect(server.received).toHaveLength(2);
      expect(await warnings.overflows()).toEqual([]);
    });

    it('on a retry: rejects at once with RateLimitError, one request', async () => {
      const retries: number[] = [];
      const { server, client } = await setup([tooManyRequests(headers), reply(200, BALANCE)], {
        maxRetries: 3,
        hooks: { onRetry: (info) => retries.push(info.delayMs) },
      });
      await rejectionOf(client.credits.balance(), RateLimitError);
      expect(retries).toEqual([]);
      expect(server.received).toHaveLength(1);
      expect(await warnings.overflows()).toEqual([]);
    });

    it('under pacing: the 429 fails its call, and the next call is not held for it', async () => {
      const { server, client } = await setup([tooManyRequests(headers), reply(200, BALANCE)], { pacing: 30 });
      await rejectionOf(client.credits.balance(), RateLimitError);
      // Held, the next call would never answer: a held pacer re-arms an overflowing timer, which warns.
      const next = client.credits.balance();
      const first = await Promise.race([
        next.then(() => 'answered'),
        once(process, 'warning').then(([warning]) => `warned: ${(warning as Error).name}`),
      ]);
      expect(first).toBe('answered');
      expect(server.received).toHaveLength(2);
      expect(await warnings.overflows()).toEqual([]);
    });
  });

  it('a poll still waits out a Retry-After within maxRetryDelayMs, then polls again', async () => {
    const done = { ...JOB, status: 'succeeded', article: null };
    const { server, client } = await setup(
      [reply(200, JOB), tooManyRequests({ 'retry-after': '1' }), reply(200, done)],
      { pollIntervalMs: 0, maxRetries: 0, maxRetryDelayMs: 1000 },
    );
    const job = await client.jobs.waitFor(JOB.job_id);
    expect(job.status).toBe('succeeded');
    expect(server.received).toHaveLength(3);
  });

  it('a poll refuses a Retry-After just above maxRetryDelayMs', async () => {
    const again = stopOnPoll(reply(200, JOB));
    const { server, client } = await setup(
      [reply(200, JOB), tooManyRequests({ 'retry-after': '2' }), again.step],
      { pollIntervalMs: 0, maxRetries: 0, maxRetryDelayMs: 1999 },
    );
    const error = await rejectionOf(
      client.jobs.waitFor(JOB.job_id, { signal: again.signal }),
      RateLimitError,
    );
    expect(error.retryAfterSeconds).toBe(2);
    expect(server.received).toHaveLength(2);
  });
});

/**
 * A step that answers with `answer` and notes when each request arrived; once `count` have, it
 * stops the caller's wait through `signal`, so a test ends on events, not on a clock.
 */
function timedSteps(answer: Step, count: number) {
  const controller = new AbortController();
  const arrivals: number[] = [];
  const step: Step = (res, req) => {
    arrivals.push(performance.now());
    if (arrivals.length >= count) controller.abort(new Error(`${count} requests seen`));
    answer(res, req);
  };
  const gaps = () => arrivals.slice(1).map((at, i) => at - arrivals[i]!);
  return { signal: controller.signal, step, gaps };
}

// A timer never fires early, so a gap measured at the server is at least the wait the client
// took; a loaded machine only makes it longer. The tolerance covers clock rounding.
const TOLERANCE_MS = 5;

describe('a Retry-After shorter than our own wait (attack finding 13: Retry-After: 0)', () => {
  const { setup } = useScriptedServers();

  it('between polls: waits the poll interval, not the 0 s the server asked', async () => {
    const intervalMs = 200;
    const polls = timedSteps(tooManyRequests({ 'retry-after': '0' }), 4);
    const { client } = await setup([reply(200, JOB), polls.step], { maxRetries: 0 });
    await rejectionOf(client.jobs.waitFor(JOB.job_id, { intervalMs, signal: polls.signal }));
    expect(polls.gaps()).toHaveLength(3);
    for (const gap of polls.gaps()) expect(gap).toBeGreaterThanOrEqual(intervalMs - TOLERANCE_MS);
  });

  it('between polls: a Retry-After longer than the interval is waited in full', async () => {
    const polls = timedSteps(tooManyRequests({ 'retry-after': '1' }), 2);
    const { client } = await setup([reply(200, JOB), polls.step], { maxRetries: 0 });
    await rejectionOf(client.jobs.waitFor(JOB.job_id, { intervalMs: 200, signal: polls.signal }));
    expect(polls.gaps()[0]).toBeGreaterThanOrEqual(1000 - TOLERANCE_MS);
  });

  it('between retries: backs off at least MIN_SERVER_WAIT_MS', async () => {
    const retries: number[] = [];
    const attempts = timedSteps(tooManyRequests({ 'retry-after': '0' }), 3);
    const { server, client } = await setup([attempts.step], {
      maxRetries: 2,
      hooks: { onRetry: (info) => retries.push(info.delayMs) },
    });
    await rejectionOf(client.credits.balance(), RateLimitError);
    expect(server.received).toHaveLength(3);
    expect(retries).toEqual([MIN_SERVER_WAIT_MS, MIN_SERVER_WAIT_MS]);
    for (const gap of attempts.gaps()) expect(gap).toBeGreaterThanOrEqual(MIN_SERVER_WAIT_MS - TOLERANCE_MS);
  });

  it('under pacing: the next call is held at least MIN_SERVER_WAIT_MS after the 429', async () => {
    const calls = timedSteps(tooManyRequests({ 'retry-after': '0' }), 2);
    const { client } = await setup([calls.step], { maxRetries: 0, pacing: 600 });
    await rejectionOf(client.credits.balance(), RateLimitError);
    await rejectionOf(client.credits.balance(), RateLimitError);
    expect(calls.gaps()[0]).toBeGreaterThanOrEqual(MIN_SERVER_WAIT_MS - TOLERANCE_MS);
  });
});
