import { createServer } from 'node:net';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { hang, JOB, reply, reset } from '@profile-articles/test-utils/scripted-server';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InsufficientCreditsError,
  NotFoundError,
  PaymentsNotConfiguredError,
  ProfileArticles,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../src/node.js';
import { TRANSPORTS, useScriptedServers } from './scripted-client.js';

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const { setup } = useScriptedServers(options);

  describe('retries', () => {
    it('waits out Retry-After: 1 on 429, then succeeds', async () => {
      const delays: number[] = [];
      const { server, client } = await setup(
        [
          reply(429, { detail: 'slow down' }, { 'retry-after': '1' }),
          reply(200, { credits: 5, pricing: {} }),
        ],
        { hooks: { onRetry: (info) => delays.push(info.delayMs) } },
      );
      const started = Date.now();
      const balance = await client.credits.balance();
      expect(balance.credits).toBe(5);
      expect(server.received).toHaveLength(2);
      // The wait the SDK chose is exact; the clock only shows it was not cut short (a busy
      // machine can make a wait longer, never shorter, so no upper bound on the clock).
      expect(delays).toEqual([1000]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    });

    it('sends one Idempotency-Key across 500, 503 and the final 202 of a generate', async () => {
      const { server, client } = await setup(
        [reply(500, { detail: 'boom' }), reply(503, { detail: 'busy' }), reply(202, JOB)],
        { maxRetries: 2 },
      );
      const job = await client.articles.generate('ada-lovelace');
      expect(job).toMatchObject({ job_id: JOB.job_id });
      expect(server.received).toHaveLength(3);
      const keys = server.received.map((r) => r.headers['idempotency-key']);
      expect(new Set(keys).size).toBe(1);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(server.received.every((r) => JSON.parse(r.body).profile_id === 'ada-lovelace')).toBe(true);
    });

    it('retries a connection reset with the same key', async () => {
      const { server, client } = await setup([reset, reply(202, JOB)]);
      await client.articles.update('ada-lovelace', { idempotencyKey: 'my-key' });
      expect(server.received.map((r) => r.headers['idempotency-key'])).toEqual(['my-key', 'my-key']);
    });

    it('fails at once with RateLimitError when Retry-After exceeds maxRetryDelayMs', async () => {
      const retries: number[] = [];
      const { server, client } = await setup([reply(429, { detail: 'later' }, { 'retry-after': '3600' })], {
        hooks: { onRetry: (info) => retries.push(info.delayMs) },
      });
      const error = await rejectionOf(client.credits.balance(), RateLimitError);
      expect(retries).toEqual([]); // no wait was even scheduled
      expect(error.retryAfterSeconds).toBe(3600);
      expect(error.attempts).toBe(1);
      expect(server.received).toHaveLength(1);
    });

    it('honours retry-after-ms and an HTTP-date Retry-After', async () => {
      const soon = new Date(Date.now() + 1500).toUTCString();
      const { server, client } = await setup([
        reply(503, {}, { 'retry-after-ms': '50', 'retry-after': '30' }),
        reply(429, {}, { 'retry-after': soon }),
        reply(200, { credits: 1, pricing: {} }),
      ]);
      const started = Date.now();
      await client.credits.balance();
      expect(server.received).toHaveLength(3);
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    });

    it.each([
      [400, BadRequestError],
      [401, AuthenticationError],
      [402, InsufficientCreditsError],
      [404, NotFoundError],
      [409, ConflictError],
      [422, ValidationError],
    ])('never retries %i', async (status, ErrorClass) => {
      const { server, client } = await setup([reply(status, { detail: 'no' }), reply(202, JOB)]);
      const error = await rejectionOf(client.articles.generate('x', { idempotencyKey: 'k' }), ErrorClass);
      expect(error).toMatchObject({ status, detail: 'no', attempts: 1, idempotencyKey: 'k' });
      expect(server.received).toHaveLength(1);
    });

    it('makes exactly one attempt with maxRetries: 0', async () => {
      const { server, client } = await setup([reply(500, { detail: 'x' })], { maxRetries: 0 });
      await rejectionOf(client.jobs.get(JOB.job_id), ServerError);
      expect(server.received).toHaveLength(1);
    });

    it('gives up after maxRetries with the last error and the attempt count', async () => {
      const { server, client } = await setup(
        [reply(502, { detail: 'bad gateway' }, { 'retry-after': '0' })],
        {
          maxRetries: 3,
        },
      );
      const error = await rejectionOf(client.credits.balance(), ServerError);
      expect(error.attempts).toBe(4);
      expect(server.received).toHaveLength(4);
    });
  });

  describe('checkout is not idempotent', () => {
    it('does not retry 500 or 503; 503 is PaymentsNotConfiguredError', async () => {
      const { server, client } = await setup([reply(503, { detail: 'Payments are not configured' })]);
      expect(await rejectionOf(client.credits.checkout(100))).toBeInstanceOf(PaymentsNotConfiguredError);
      expect(server.received).toHaveLength(1);
      const second = await setup([reply(500, { detail: 'x' }), reply(200, { session_id: 's', url: 'u' })]);
      expect(await rejectionOf(second.client.credits.checkout(100))).toBeInstanceOf(ServerError);
      expect(second.server.received).toHaveLength(1);
    });

    it('retries 429', async () => {
      const { server, client } = await setup([
        reply(429, {}, { 'retry-after': '0' }),
        reply(200, { session_id: 's', url: 'u' }),
      ]);
      expect(await client.credits.checkout(100)).toEqual({ session_id: 's', url: 'u' });
      expect(server.received).toHaveLength(2);
    });

    it('does not retry a connection that broke after the request was sent', async () => {
      const { server, client } = await setup([reset, reply(200, { session_id: 's', url: 'u' })]);
      expect(await rejectionOf(client.credits.checkout(100))).toBeInstanceOf(ConnectionError);
      expect(server.received).toHaveLength(1);
    });
  });

  describe('timeouts, connections and aborts', () => {
    it('gives TimeoutError when an attempt runs past timeoutMs', async () => {
      const { client } = await setup([hang], { timeoutMs: 100, maxRetries: 1 });
      const error = await rejectionOf(client.credits.balance(), TimeoutError);
      expect(error.attempts).toBe(2);
    });

    it('gives TimeoutError when deadlineMs runs out across retries', async () => {
      const { client } = await setup([reply(503, {}, { 'retry-after': '30' })], {
        deadlineMs: 300,
        maxRetries: 5,
      });
      const started = Date.now();
      const error = await rejectionOf(client.credits.balance(), TimeoutError);
      // It gave up at the deadline instead of waiting out the 30 s Retry-After: one attempt, and
      // well under those 30 s (a bound far from both, so that a busy machine cannot fail it).
      expect(error.attempts).toBe(1);
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('gives ConnectionError for an unreachable host, after retrying', async () => {
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });
      const retries: number[] = [];
      const client = new ProfileArticles({
        ...options,
        apiKey: 'sk-secret',
        baseUrl: `http://127.0.0.1:${port}`,
        maxRetries: 1,
        hooks: { onRetry: (info) => retries.push(info.attempt) },
      });
      const error = await rejectionOf(client.credits.checkout(100), ConnectionError);
      expect(error.message).toContain('ECONNREFUSED');
      // Even checkout retries a connection that never reached the server.
      expect(retries).toEqual([1]);
      expect(error.attempts).toBe(2);
    });

    it('rejects within 50 ms when aborted during a backoff', async () => {
      const controller = new AbortController();
      const abort = abortThenMarkNextTurn(controller, new Error('stop'));
      const { client } = await setup([reply(503, { detail: 'busy' }, { 'retry-after': '10' })], {
        hooks: { onRetry: () => setTimeout(abort.now, 20) },
      });
      const error = await rejectionOf(client.articles.generate('x', { signal: controller.signal }));
      expect(error.message).toBe('stop');
      expect(abort.turnPassed()).toBe(false);
    });

    it('rejects within 50 ms when aborted during a poll wait, leaving the job alone', async () => {
      const { server, client } = await setup([reply(200, { ...JOB, status: 'running' })]);
      const controller = new AbortController();
      const abort = abortThenMarkNextTurn(controller, new Error('user stopped'));
      const waiting = client.jobs.waitFor(JOB.job_id, {
        intervalMs: 10_000,
        signal: controller.signal,
        onPoll: () => setTimeout(abort.now, 20),
      });
      const error = await rejectionOf(waiting);
      expect(error.message).toBe('user stopped');
      expect(abort.turnPassed()).toBe(false);
      expect(server.received.every((r) => r.method === 'GET')).toBe(true);
    });

    it('waitFor times out with TimeoutError carrying the last job', async () => {
      const { client } = await setup([reply(200, { ...JOB, status: 'running' })]);
      const started = Date.now();
      let seen: unknown;
      // The bound covers a poll in flight too: at 150 ms a loaded machine had often not had the
      // first answer yet, and the error rightly carried no job. 2 s leaves room for answers.
      const error = await rejectionOf(
        client.jobs.waitFor(JOB.job_id, { intervalMs: 30, timeoutMs: 2_000, onPoll: (job) => (seen = job) }),
        TimeoutError,
      );
      expect(seen).toMatchObject({ job_id: JOB.job_id, status: 'running' });
      expect(error.job).toEqual(seen);
      // Not before the 2 s: a wait can run late on a busy machine, never early. (A wait that
      // ignored timeoutMs would never end: the test's own timeout catches that.)
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_995);
    });

    it('logs each attempt and its retry through the logger at debug', async () => {
      const lines: string[] = [];
      const { client } = await setup(
        [
          reply(503, {}, { 'retry-after': '0' }),
          reply(200, { ...JOB, status: 'running' }),
          reply(200, { ...JOB, status: 'succeeded' }),
        ],
        { logger: { debug: (line) => lines.push(line) }, logLevel: 'debug' },
      );
      await client.jobs.waitFor(JOB.job_id, { intervalMs: 5 });
      // Three attempts in two polls: the first met a 503 asking 0 s, and was retried after the 0.5 s floor.
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^GET \S+ attempt 1: .*503.* in \d+ ms; retrying in 500 ms$/);
      expect(lines[1]).toMatch(/^GET \S+ attempt 2: 200 in \d+ ms$/);
      expect(lines[2]).toMatch(/^GET \S+ attempt 1: 200 in \d+ ms$/);
    });

    it('waitFor keeps polling through a 429 that outlasts the transport’s retries', async () => {
      const { server, client } = await setup(
        [
          reply(200, { ...JOB, status: 'running' }),
          reply(429, { detail: 'slow' }, { 'retry-after': '0' }),
          reply(200, { ...JOB, status: 'succeeded', credits_charged: 100 }),
        ],
        { maxRetries: 0 },
      );
      const seen: string[] = [];
      const job = await client.jobs.waitFor(JOB.job_id, {
        intervalMs: 10,
        onPoll: (j) => seen.push(j.status),
      });
      expect(job.status).toBe('succeeded');
      expect(seen).toEqual(['running', 'succeeded']);
      expect(server.received).toHaveLength(3);
    });
  });

  describe('response validation', () => {
    it('gives ResponseValidationError with zod issues for a 2xx body that does not match', async () => {
      const { client } = await setup([reply(200, { credits: 'many', pricing: {} })]);
      const error = await rejectionOf(client.credits.balance(), ResponseValidationError);
      expect(error.issues[0]?.path).toEqual(['credits']);
    });

    it('gives ResponseValidationError for a 2xx body that is not JSON', async () => {
      const { client } = await setup([(res) => res.end('<html>')]);
      expect(await rejectionOf(client.credits.balance())).toBeInstanceOf(ResponseValidationError);
    });

    it('tolerates unknown fields', async () => {
      const { client } = await setup([reply(200, { credits: 3, pricing: { new_limit: 1 }, tier: 'gold' })]);
      const balance = await client.credits.balance();
      expect(balance.credits).toBe(3);
      expect(balance.pricing.read_credits).toBe(1);
    });
  });

  /**
   * Aborts, and notes when the event loop next gets a turn (setImmediate). A promise that
   * rejects before that turn rejected at once, with no timer or I/O in between: "within 50 ms"
   * proven without reading a clock that a busy machine can make late.
   */
  function abortThenMarkNextTurn(controller: AbortController, reason: Error) {
    let passed = false;
    return {
      now: () => {
        controller.abort(reason);
        setImmediate(() => {
          passed = true;
        });
      },
      turnPassed: () => passed,
    };
  }
});
