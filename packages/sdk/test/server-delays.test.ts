// A wait the server asks for (Retry-After, retry-after-ms) is hostile input: a delay above
// maxRetryDelayMs is never waited, by a retry, a poll or the pacer; the call fails at once with
// RateLimitError. Before this rule a poll's 429 with `Retry-After: 99999999` overflowed Node's
// timer to 1 ms: hundreds of polls a second and a TimeoutOverflowWarning each, for the whole wait.
import { once } from 'node:events';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { JOB, reply, type Step } from '@profile-articles/test-utils/scripted-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimitError } from '../src/node.js';
import { TRANSPORTS, useScriptedServers } from './scripted-client.js';

const BALANCE = {
  credits: 5,
  pricing: { generation_credits: 100, update_credits: 100, requests_per_minute: 60 },
};
const FAR = new Date(Date.now() + 10 * 365 * 86_400_000).toUTCString();

/** The forms of "come back much later" a server can send, each above the default 60 s maximum. */
const HUGE_WAITS: Array<[string, Record<string, string>]> = [
  ['Retry-After: 99999999', { 'retry-after': '99999999' }],
  ['a 400-digit Retry-After', { 'retry-after': '9'.repeat(400) }],
  ['retry-after-ms: 99999999999', { 'retry-after-ms': '99999999999' }],
  ['an HTTP date ten years on', { 'retry-after': FAR }],
];

const tooManyRequests = (headers: Record<string, string>) => reply(429, { detail: 'slow down' }, headers);

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

/** Node warns (on the next tick) whenever a timer is set past 2^31 − 1 ms and runs it after 1 ms. */
function watchWarnings() {
  const seen: Error[] = [];
  const listener = (warning: Error) => seen.push(warning);
  beforeEach(() => {
    seen.length = 0;
    process.on('warning', listener);
  });
  afterEach(() => {
    process.off('warning', listener);
  });
  return {
    /** Overflow warnings so far, after letting any pending one be emitted. */
    async overflows() {
      await new Promise((resolve) => setImmediate(resolve));
      return seen.filter((w) => w.name === 'TimeoutOverflowWarning');
    },
  };
}

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const { setup } = useScriptedServers(options);
  const warnings = watchWarnings();

  describe.each(HUGE_WAITS)('%s', (_name, headers) => {
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
