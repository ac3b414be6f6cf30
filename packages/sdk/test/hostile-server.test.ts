// The SDK against servers that misbehave on purpose: every case ends in the expected typed error,
// never a hang, never a body read whole, never a request sent elsewhere, and generate/update never
// retry with a new Idempotency-Key.
import { inspect } from 'node:util';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import {
  huge,
  JOB,
  rawAnswer,
  reply,
  resetMidBody,
  type Step,
  scriptedServer,
  trickle,
} from '@profile-articles/test-utils/scripted-server';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ConnectionError,
  ResponseValidationError,
  SpendLimitError,
  TimeoutError,
} from '../src/index.js';
import { TRANSPORTS, useScriptedServers } from './scripted-client.js';

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const { setup, track } = useScriptedServers(options);

  const keysOf = (server: { received: Array<{ headers: Record<string, unknown> }> }) =>
    server.received.map((r) => r.headers['idempotency-key']);

  describe('a body that never ends', () => {
    it('times out when headers come at once but the body trickles, and retries with the same key', async () => {
      const { server, client } = await setup([trickle(20)], { timeoutMs: 800, maxRetries: 1 });
      // 800 ms, not less: on a busy machine a shorter attempt can end before the server has read the request.
      const started = Date.now();
      const error = await rejectionOf(client.articles.generate('ada-lovelace'), TimeoutError);
      expect(error.attempts).toBe(2);
      expect(Date.now() - started).toBeLessThan(8000);
      expect(server.received).toHaveLength(2);
      const keys = keysOf(server);
      expect(keys[0]).toBeTruthy();
      expect(keys[1]).toBe(keys[0]);
    });
  });

  describe('a slow answer', () => {
    it('gets one time limit for headers and body together, not one for each', async () => {
      // Headers after 90% of the attempt's time, then a body that trickles: the attempt ends at
      // its limit (2 s), not at the limit again after the headers (3.8 s at the earliest, as
      // timers never fire early). The bound sits just below that, leaving a loaded machine 1.7 s.
      const lateTrickle: Step = (res) => void setTimeout(() => trickle(20)(res, undefined as never), 1800);
      const { client } = await setup([lateTrickle], { timeoutMs: 2000, maxRetries: 0 });
      const started = Date.now();
      const error = await rejectionOf(client.credits.balance());
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(TimeoutError);
      expect(elapsed).toBeGreaterThanOrEqual(1900);
      expect(elapsed).toBeLessThan(3700);
    });

    it('stops reading a trickling body when the caller aborts, with the caller’s reason', async () => {
      const { client } = await setup([trickle(20)], { timeoutMs: 60_000, maxRetries: 0 });
      const reason = new Error('caller stopped');
      const controller = new AbortController();
      setTimeout(() => controller.abort(reason), 300);
      const started = Date.now();
      await expect(client.credits.balance({ signal: controller.signal })).rejects.toBe(reason);
      // The body would trickle for the 60 s limit: any bound well under it proves the abort.
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('stops reading a trickling body at the call’s deadline', async () => {
      const { client } = await setup([trickle(20)], { timeoutMs: 60_000, maxRetries: 0 });
      const started = Date.now();
      const error = await rejectionOf(client.credits.balance({ deadlineMs: 300 }));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.message).toContain('deadline');
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  });

  describe('a body too large to read', () => {
    it.each([
      ['chunked', false],
      ['with Content-Length', true],
    ])(
      'refuses a 400 MB answer (%s) after at most 10 MiB, without retrying',
      async (_name, contentLength) => {
        const sent = { bytes: 0 };
        const { server, client } = await setup([huge(sent, { contentLength })], { maxRetries: 2 });
        const error = await rejectionOf(
          client.articles.update('ada-lovelace', { idempotencyKey: 'k-1' }),
          ResponseValidationError,
        );
        expect(error.message).toMatch(/10 MiB/);
        expect(error.idempotencyKey).toBe('k-1');
        expect(server.received).toHaveLength(1);
        // Socket buffers hold a few MB at most: the client stopped reading near the cap.
        expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
      },
      15_000,
    );

    it('reads a body just under the cap', async () => {
      const padding = ' '.repeat(10 * 1024 * 1024 - 200);
      const { client } = await setup([
        (res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(`{"credits": 7, "pricing": {}}${padding}`);
        },
      ]);
      expect((await client.credits.balance()).credits).toBe(7);
    });
  });

  describe('redirects', () => {
    it.each([301, 302, 307, 308])(
      'a %i is an ApiError naming the Location; nothing reaches the other origin',
      async (status) => {
        const elsewhere = track(await scriptedServer([reply(202, JOB)]));
        const location = `${elsewhere.url}/api/v1/articles`;
        const { server, client } = await setup([reply(status, { detail: 'moved' }, { location })], {
          maxRetries: 2,
        });
        const error = await rejectionOf(client.articles.generate('ada-lovelace'), ApiError);
        expect(error.status).toBe(status);
        expect(error.message).toContain(location);
        // detail too: the CLI prints `detail`, and a 3xx body rarely has one.
        expect(error.detail).toContain(location);
        expect(error.attempts).toBe(1);
        expect(server.received).toHaveLength(1);
        expect(elsewhere.received).toHaveLength(0);
      },
    );
  });

  describe('request ids', () => {
    // HTTP parsers refuse a raw C0 control or DEL in a header, but pass any byte from 0x80:
    // U+009B is the 8-bit CSI that some terminals read as the start of an escape sequence.
    it.each([
      ['a C1 control (8-bit CSI, "clear screen")', '\u009b2Jreq_1'],
      ['a tab', 'req\t1'],
      ['a character outside ASCII', 'réq_1'],
      ['longer than 200 characters', `req_${'1'.repeat(197)}`],
    ])('an id with %s is dropped: no requestId, nothing to reach a terminal', async (_, id) => {
      const { client } = await setup([reply(404, { detail: 'gone' }, { 'x-request-id': id })]);
      const error = await rejectionOf(client.articles.read('ada'), ApiError);
      expect(error.requestId).toBeUndefined();
      expect(JSON.stringify(error.toJSON())).not.toContain('2J');
      const answered = await setup([reply(200, { credits: 1, pricing: {} }, { 'x-request-id': id })]);
      expect((await answered.client.credits.balance().withResponse()).requestId).toBeUndefined();
    });

    it('keeps an id of 200 printable characters as it came', async () => {
      const id = `req_${'~'.repeat(196)}`;
      const { client } = await setup([reply(404, { detail: 'gone' }, { 'x-request-id': id })]);
      expect((await rejectionOf(client.articles.read('ada'), ApiError)).requestId).toBe(id);
    });

    it('never holds the API key, should the server send it back as the id', async () => {
      const { client } = await setup([reply(500, { detail: 'x' }, { 'x-request-id': 'sk-secret' })], {
        maxRetries: 0,
      });
      const error = await rejectionOf(client.credits.balance(), ApiError);
      expect(error.requestId).toBe('[redacted]');
      expect(JSON.stringify(error)).not.toContain('sk-secret');
    });
  });

  describe('broken connections and bodies', () => {
    it('a connection reset mid-body is a ConnectionError, retried with the same key', async () => {
      const { server, client } = await setup([resetMidBody], { maxRetries: 2 });
      const error = await rejectionOf(client.articles.generate('ada-lovelace'), ConnectionError);
      expect(error.attempts).toBe(3);
      expect(new Set(keysOf(server)).size).toBe(1);
      expect(server.received).toHaveLength(3);
    });

    it('invalid JSON in a 2xx is a ResponseValidationError, not retried', async () => {
      const { server, client } = await setup([
        (res) => {
          res.writeHead(202, { 'content-type': 'application/json' });
          res.end('{"job_id": ');
        },
      ]);
      await rejectionOf(client.articles.update('ada-lovelace'), ResponseValidationError);
      expect(server.received).toHaveLength(1);
    });

    it('a charged read whose infobox is nested 20,000 deep and whose text has escapes is the article', async () => {
      // The escape sent the body through JSON.parse's reviver, which overflowed near 8,000 levels:
      // the read was charged and ended in a ResponseValidationError for a body that matched.
      const depth = 20_000;
      const article = `{"article_id":"a","title":"T","content":"line\\nline","sources":[],"infobox":{"n":${'['.repeat(depth)}${']'.repeat(depth)}},"current_version":1,"created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"}`;
      const { client } = await setup([
        (res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(`{"credits_charged":1,"article":${article}}`);
        },
      ]);
      const read = await client.articles.read('ada-lovelace');
      expect(read.credits_charged).toBe(1);
      expect(read.article.content).toBe('line\nline');
      let depthSeen = 0;
      for (let node = read.article.infobox?.n as unknown[]; node.length; node = node[0] as unknown[])
        depthSeen++;
      expect(depthSeen).toBe(depth - 1);
    });

    it('a wrong shape in a 2xx is a ResponseValidationError with the issues, not retried', async () => {
      const { server, client } = await setup([
        reply(202, { ...JOB, status: 'exploded', credits_charged: '100' }),
      ]);
      const error = await rejectionOf(
        client.articles.generate('ada-lovelace', { idempotencyKey: 'k-2' }),
        ResponseValidationError,
      );
      expect(error.idempotencyKey).toBe('k-2');
      expect(error.issues.map((i) => i.path[0]).sort()).toEqual(['credits_charged', 'status']);
      expect(server.received).toHaveLength(1);
    });

    it('invalid JSON in a 5xx is a typed error retried with the same key', async () => {
      const { server, client } = await setup(
        [
          (res) => {
            res.writeHead(500, { 'content-type': 'application/json' });
            res.end('<html>oops');
          },
          reply(202, JOB),
        ],
        { maxRetries: 1 },
      );
      await client.articles.update('ada-lovelace');
      expect(server.received).toHaveLength(2);
      expect(new Set(keysOf(server)).size).toBe(1);
    });
  });

  describe('a server that says one price and charges another', () => {
    it('spendLimit prices a call at no less than this client was charged for one like it', async () => {
      // The balance advertises a generation at 1 credit; each generate then charges 100.
      const { server, client } = await setup(
        [
          reply(200, { credits: 10_000, pricing: { generation_credits: 1 } }),
          reply(202, { ...JOB, credits_charged: 100 }),
          reply(202, { ...JOB, job_id: '9b1f8e3a-5c2d-4e6f-8a7b-1c2d3e4f5a6b', credits_charged: 100 }),
        ],
        { spendLimit: 150 },
      );
      await client.credits.balance();
      await client.articles.generate('ada-lovelace'); // held 1, charged 100: spent 100
      // Held at 1 again, it would go out and take spent to 200, past the limit of 150.
      const refused = await rejectionOf(client.articles.generate('grace-hopper'), SpendLimitError);
      expect(refused).toMatchObject({ spent: 100, price: 100 });
      expect(server.received).toHaveLength(2);
      expect(client.spent).toBe(100);
    });
  });

  describe('a server that echoes the API key back', () => {
    const KEY = 'sk-live-ECHOED-0123456789';
    const escaped = KEY.replace('s', '\\u0073');

    function exposures(value: unknown): string {
      const error = value as Error;
      return [
        inspect(value, { depth: 10, showHidden: true }),
        JSON.stringify(value) ?? '',
        String(value),
        error?.message,
        error?.stack,
        inspect((value as { cause?: unknown })?.cause, { depth: 10, showHidden: true }),
      ].join('\n');
    }

    /** Every string and every byte array held anywhere in `value`, the bytes read as text. */
    function heldTexts(value: unknown, seen = new Set<unknown>()): string[] {
      if (typeof value === 'string') return [value];
      if (ArrayBuffer.isView(value))
        return [Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString()];
      if (value === null || typeof value !== 'object' || seen.has(value)) return [];
      seen.add(value);
      const names = [...Object.getOwnPropertyNames(value), 'cause', 'message', 'stack'];
      return names.flatMap((name) => heldTexts((value as Record<string, unknown>)[name], seen));
    }

    it('never keeps the raw bytes of a malformed answer that holds it', async () => {
      const malformed = rawAnswer((req) => {
        const seen = String(req.headers.authorization).replace('Bearer ', '');
        return `HTTP/1.1 200 ${seen}\r\nBad\u0001Header: ${seen}\r\n\r\n`;
      });
      const { client } = await setup([malformed], { apiKey: KEY, maxRetries: 0 });
      const error = await rejectionOf(client.credits.balance());
      expect(error).toBeInstanceOf(ConnectionError);
      expect(exposures(error)).not.toContain('ECHOED');
      expect(heldTexts(error).join('\n')).not.toContain('ECHOED');
    });

    it('never gets it into an error, a log line or a hook argument', async () => {
      const echo: Step = (res, req) => {
        const seen = String(req.headers.authorization).replace('Bearer ', '');
        const which = req.url ?? '';
        if (which.endsWith('/articles/fail/update')) {
          res.writeHead(202, { 'content-type': 'application/json' });
          res.end(JSON.stringify(JOB));
        } else if (which.endsWith('/credits')) {
          // The key as a header's value and as a header's name, which fetch lowercases.
          res.writeHead(500, `Bad ${seen}`, {
            'content-type': 'application/json',
            'x-echo': seen,
            [`x-${seen}`]: '1',
          });
          res.end(JSON.stringify({ detail: `your key ${seen} is wrong` }));
        } else if (which.endsWith('/update')) {
          res.writeHead(422, { 'content-type': 'application/json' });
          res.end(
            `{"detail":[{"loc":["header","${escaped}"],"msg":"${escaped} bad","type":"x","${escaped}":1}]}`,
          );
        } else if (which.startsWith('/api/v1/jobs/')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ...JOB, status: 'failed', error: `ran as ${seen}` }));
        } else if (which.startsWith('/api/v1/articles/')) {
          res.writeHead(302, { location: `http://example.invalid/?key=${encodeURIComponent(seen)}` });
          res.end();
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ...JOB, status: seen }));
        }
      };
      const lines: string[] = [];
      const hookCalls: unknown[] = [];
      const { client } = await setup([echo], {
        apiKey: KEY,
        maxRetries: 1,
        // Every level, so every line the SDK writes is read.
        logger: Object.fromEntries(
          ['error', 'warn', 'info', 'debug'].map((level) => [
            level,
            (line: string, meta?: unknown) => lines.push(line + JSON.stringify(meta ?? {})),
          ]),
        ),
        logLevel: 'debug',
        hooks: {
          onRequest: (info) => hookCalls.push(info),
          onResponse: (info) => hookCalls.push(info),
          onRetry: (info) => hookCalls.push(info),
        },
      });
      const failures = await Promise.allSettled([
        client.credits.balance(), // 500 with the key in detail, reason phrase and a header; retried
        client.articles.update('ada', { idempotencyKey: 'k' }), // 422, key JSON-escaped in entries
        client.articles.read('ada'), // 302 with the key in Location
        client.articles.generateAndWait('ada', { intervalMs: 1 }), // wrong shape: key as status
        client.articles.updateAndWait('ada', { intervalMs: 1 }), // 422 as above
        client.jobs.waitFor(JOB.job_id, { intervalMs: 1, timeoutMs: 1 }), // TimeoutError, maybe with a job
        client.articles.updateAndWait('fail', { intervalMs: 1 }), // JobFailedError: job.error echoes
      ]);
      expect(failures.every((f) => f.status === 'rejected')).toBe(true);
      for (const failure of failures) {
        // Lowercased: a header name comes lowercased, and holds the key all the same.
        const text = exposures((failure as PromiseRejectedResult).reason).toLowerCase();
        expect(text).not.toContain('echoed');
      }
      const reasons = failures.map((f) => (f as PromiseRejectedResult).reason);
      expect(reasons.map((r) => r.name)).toEqual([
        'ServerError',
        'ValidationError',
        'ApiError',
        'ResponseValidationError',
        'ValidationError',
        'TimeoutError',
        'JobFailedError',
      ]);
      expect(reasons[6].job.error).toBe('ran as [redacted]');
      const balanceError = reasons[0];
      expect(balanceError.detail).toBe('your key [redacted] is wrong');
      expect(balanceError.headers['x-echo']).toBe('[redacted]');
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n').toLowerCase()).not.toContain('echoed');
      expect(inspect(hookCalls, { depth: 10, showHidden: true }).toLowerCase()).not.toContain('echoed');
    });
  });
});
