// What a person quotes when asking about a call: the server's request id, in --verbose lines
// and in every error that came from an answer (text and --json); and error messages that say
// each thing once, blame a wrong base URL, and do not claim a job may have started when the
// connection was refused. In-process against the real mock over HTTP.
import { createServer, type Server } from 'node:net';
import { startDriftingMock } from '@profile-articles/test-utils/drifting-mock';
import { requestIdAs } from '@profile-articles/test-utils/lying-mock';
import { describe, expect, it } from 'vitest';
import { ERROR_FIELDS, useCliMock } from './helpers.js';

const h = useCliMock();

/** The last line of stderr, which under --json is the one error object. */
const lastJson = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!);
/** The request id the mock journalled for the last request to `path`. */
const journalled = (path: string) =>
  h.server.service.journal().find((entry) => entry.path === path)?.requestId; // newest first

describe('request ids', () => {
  it('an error from an answer shows its request id: a line of its own, and request_id after status', async () => {
    const text = await h.run(['read', 'nobody']);
    expect(text.code).toBe(1);
    const id = journalled('/api/v1/articles/nobody');
    expect(id).toMatch(/^req_\d+$/);
    expect(text.stderr.trimEnd().split('\n')).toEqual([
      'Error: Not found (404). No article exists for this profile.',
      'A read never generates: use `profile-articles generate nobody`.',
      `Request id: ${id}`,
    ]);
    const json = await h.run(['read', 'nobody', '--json']);
    const { error } = lastJson(json.stderr);
    expect(Object.keys(error)).toEqual(ERROR_FIELDS);
    expect(error.request_id).toBe(journalled('/api/v1/articles/nobody'));
  });

  it('an error with no answer behind it has request_id null and no request id line', async () => {
    const usage = await h.run(['buy', 'lots', '--json']);
    expect(lastJson(usage.stderr).error.request_id).toBeNull();
    const text = await h.run(['buy', 'lots']);
    expect(text.stderr).not.toContain('Request id');
  });

  it('--verbose lines carry each answer’s request id, text and JSON', async () => {
    const text = await h.run(['credits', '--verbose']);
    const line = text.stderr.split('\n').find((l) => l.startsWith('http '));
    expect(line).toMatch(/^http GET \/api\/v1\/credits · 200 · request req_\d+ · \d+ ms · attempt 1$/);
    expect(line).toContain(`request ${journalled('/api/v1/credits')}`);
    const json = await h.run(['credits', '--verbose', '--json']);
    const http = JSON.parse(json.stderr.trim().split('\n')[0]!).http;
    expect(Object.keys(http).slice(0, 4)).toEqual(['method', 'path', 'status', 'request_id']);
    expect(http.request_id).toBe(journalled('/api/v1/credits'));
  });
});

describe('a hostile request id', () => {
  it('never reaches the terminal: an id with an escape is dropped, in errors and --verbose lines', async () => {
    // U+009B is the 8-bit CSI: "\u009b2J" clears the screen on a terminal that reads it so.
    const mock = await startDriftingMock(requestIdAs('req_\u009b2J'));
    try {
      const env = { PROFILE_ARTICLES_BASE_URL: mock.url, PROFILE_ARTICLES_API_KEY: 'demo-key' };
      const text = await h.run(['read', 'nobody', '--verbose'], { env });
      expect(text.code).toBe(1);
      expect(text.stderr).toContain('Error: Not found (404).');
      expect(text.stderr).not.toMatch(/\u009b|2J|Request id|request req/);
      const json = await h.run(['read', 'nobody', '--json'], { env });
      expect(lastJson(json.stderr).error.request_id).toBeNull();
    } finally {
      await mock.close();
    }
  });
});

describe('messages that read well', () => {
  it('a wrong path in the base URL is named as such, each thing said once', async () => {
    const wrong = `${h.server.url}/api/v2`;
    for (const args of [['credits'], ['buy', '100']]) {
      const result = await h.run(args, { env: { PROFILE_ARTICLES_BASE_URL: wrong } });
      expect(result.code).toBe(1);
      const [message, hint] = result.stderr.trimEnd().split('\n');
      // The mock's own words for an unknown path are "Not found": not said a second time.
      expect(message).toBe('Error: Not found (404).');
      expect(hint).toContain(wrong);
      expect(hint).toMatch(/origin/);
    }
  });

  describe('a refused connection on generate or update', () => {
    /** A port on this machine that nothing listens on. */
    async function closedPort(): Promise<number> {
      const server: Server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      await new Promise((resolve) => server.close(resolve));
      return port;
    }

    // A connection that broke after the request went out still gets the safe retry: see
    // money-safety.test.ts.
    it('says nothing reached the server, and no retry command', async () => {
      const env = { PROFILE_ARTICLES_BASE_URL: `http://127.0.0.1:${await closedPort()}` };
      const generate = await h.run(['generate', 'grace-hopper'], { env });
      expect(generate.code).toBe(1);
      expect(generate.stderr).toContain('nothing reached the server');
      expect(generate.stderr).not.toMatch(/may have started|Retry safely/);
      const update = await h.run(['update', 'grace-hopper', '--json'], { env });
      expect(update.code).toBe(1);
      const { error } = lastJson(update.stderr);
      expect(error.message).toContain('nothing reached the server');
      expect(error.hint).not.toMatch(/may have started|idempotency-key/);
    });
  });
});
