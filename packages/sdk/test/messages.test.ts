// Error messages that read well: the server's detail, then the SDK's hint in a sentence of its
// own, never the same words twice; a 404 the API never gives blames the base URL; a refused
// connection says nothing reached the server, and only when that holds for every attempt.
import { createServer, type Server } from 'node:net';
import { anyCodePoints } from '@profile-articles/test-utils/arbitraries';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import {
  hang,
  JOB,
  reply,
  reset,
  resetHard,
  type Step,
  scriptedServer,
} from '@profile-articles/test-utils/scripted-server';
import { startMock } from '@profile-articles/test-utils/start-mock';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiError } from '../src/errors/error-from-answer.js';
import {
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  ProfileArticles,
  TimeoutError,
} from '../src/node.js';
import { TRANSPORTS, useScriptedServers } from './scripted-client.js';

/** A message's sentences as a reader splits them: at a full stop, ! or ? followed by a space. */
const sentencesOf = (message: string) => message.split(/(?<=[.!?])\s+/).filter((s) => s.trim() !== '');
/** A sentence's words, lower-cased, for "the same words": letters and digits only. */
const wordsOf = (sentence: string) =>
  sentence
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu)
    ?.join(' ') ?? '';

/** No sentence's words appear again, whole, in a later sentence or the other way round. */
function saysNothingTwice(message: string): void {
  const words = sentencesOf(message).map(wordsOf);
  words.forEach((these, i) => {
    words.forEach((those, j) => {
      if (i === j || these === '' || those === '') return;
      expect(` ${those} `.includes(` ${these} `), `"${message}" says "${these}" twice`).toBe(false);
    });
  });
}

const STATUSES = [400, 401, 402, 404, 409, 422, 429, 500, 502, 503];
const source = (status: number, body: unknown) => ({
  status,
  statusText: '',
  headers: {},
  body,
  isCheckout: status === 502 || status === 503,
  answers404: true,
  baseUrl: 'https://api.example.com',
  keyFrom: 'the apiKey option',
  retryAfterSeconds: status === 429 ? 3 : undefined,
  context: {},
});

describe('the message of an error answer', () => {
  it('says nothing twice, whatever the detail (property)', () => {
    // Details a server could send: anything, and the SDK's own hints' words, whole or in parts.
    // A 409 whose detail names the key gets the key's hint, not the active job's: both are in.
    const hintWords = [
      ...STATUSES.map((status) => createApiError(source(status, { detail: '' })).message),
      createApiError(source(409, { detail: 'key' })).message,
    ];
    const piece = fc.oneof(
      fc.constantFrom(...hintWords.flatMap(sentencesOf)),
      fc.lorem({ maxCount: 4 }),
      anyCodePoints({ maxLength: 20 }),
    );
    const joined = fc
      .array(fc.tuple(piece, fc.constantFrom('. ', '! ', ' ', '; ', '.\n', '')), { maxLength: 5 })
      .map((parts) => parts.map(([text, end]) => text + end).join(''));
    const detail = fc.oneof(anyCodePoints({ maxLength: 80 }), fc.constantFrom(...hintWords), joined);
    fc.assert(
      fc.property(fc.constantFrom(...STATUSES), detail, fc.boolean(), (status, text, listed) => {
        const error = createApiError({ ...source(status, { detail: text }), answers404: listed });
        // The status leads the message as a label; the sentences follow it.
        expect(error.message.startsWith(`${status} `)).toBe(true);
        saysNothingTwice(error.message.slice(`${status} `.length));
      }),
      { numRuns: 500 },
    );
  });

  it("puts the hint after the detail, in a sentence of its own, and drops the server's repetition", () => {
    const conflict = createApiError(
      source(409, { detail: 'Another job is active for this profile; wait for it to finish' }),
    );
    expect(conflict.message).toMatch(
      /^409 Another job is active for this profile; wait for it to finish\. [A-Z][^.]+\.$/,
    );
    const echoed = createApiError(source(401, { detail: 'Check the API key (from the apiKey option).' }));
    expect(echoed.message).toBe('401 Check the API key (from the apiKey option).');
    const plain = createApiError(source(404, { detail: 'Not found' }));
    expect(plain.message).toBe('404 Not found.');
  });
});

describe('a connection that breaks once the request was written', () => {
  /** What every such message says, after the origin and the error's code. */
  const ACTED = 'the server may have acted on the request';

  describe.each(TRANSPORTS)('over $name', ({ options }) => {
    const { setup } = useScriptedServers(options);

    it.each([
      ['closed', reset],
      ['reset', resetHard],
    ])(
      '%s after reading a generate or an update: names error.idempotencyKey, and a retry with it works',
      async (_, drop) => {
        for (const call of ['generate', 'update'] as const) {
          const { client, server } = await setup([drop, reply(202, JOB)], { maxRetries: 0 });
          const error = await rejectionOf(client.articles[call]('ada-lovelace'), ConnectionError);
          expect(server.received).toHaveLength(1);
          expect(error.message).toMatch(new RegExp(`^Could not reach ${server.url} \\(\\w+\\); ${ACTED}: `));
          expect(error.message).toContain(
            'pass error.idempotencyKey as idempotencyKey to retry it without a second charge',
          );
          expect(error.idempotencyKey).toBe(server.received[0]!.headers['idempotency-key']);
          await client.articles[call]('ada-lovelace', { idempotencyKey: error.idempotencyKey! });
          expect(server.received[1]!.headers['idempotency-key']).toBe(error.idempotencyKey);
        }
      },
    );

    it('of a checkout says a session may exist; of a read, that the server may have acted', async () => {
      const { client: buyer, server } = await setup([resetHard], { maxRetries: 0 });
      const checkout = await rejectionOf(buyer.credits.checkout(100), ConnectionError);
      expect(checkout.message).toMatch(
        new RegExp(`^Could not reach ${server.url} \\(\\w+\\); ${ACTED}: a checkout session may exist$`),
      );
      const read = await rejectionOf(buyer.articles.read('ada-lovelace'), ConnectionError);
      expect(read.message).toMatch(new RegExp(`^Could not reach ${server.url} \\(\\w+\\); ${ACTED}$`));
    });

    it('says so when an attempt timed out, or the deadline fell during one', async () => {
      const { client } = await setup([hang], { maxRetries: 0 });
      const timedOut = await rejectionOf(client.articles.generate('ada', { timeoutMs: 300 }), TimeoutError);
      expect(timedOut.message).toMatch(
        new RegExp(`^POST /articles\\S* timed out after 300 ms; ${ACTED}: pass error.idempotencyKey `),
      );
      const late = await rejectionOf(client.articles.update('ada', { deadlineMs: 300 }), TimeoutError);
      expect(late.message).toMatch(
        new RegExp(
          `^POST /articles\\S* ran past its deadline of 300 ms; ${ACTED}: pass error.idempotencyKey `,
        ),
      );
      expect(late.idempotencyKey).toBeDefined();
    });
  });
});

describe('a refused key (401)', () => {
  let baseUrl: string;
  let close: () => unknown;
  beforeAll(async () => {
    const mock = await startMock('http', { accounts: [{ id: 'a', apiKeys: ['key-acme-1'], credits: 100 }] });
    baseUrl = mock.baseUrl;
    close = mock.close;
  });
  afterAll(() => close());
  afterEach(() => vi.unstubAllEnvs());

  it.each(TRANSPORTS)(
    'names where the key came from: the apiKey option or PROFILE_ARTICLES_API_KEY, over $name',
    async ({ options }) => {
      // Passed in code, the environment's variable is no place to look, even when it is set.
      vi.stubEnv('PROFILE_ARTICLES_API_KEY', 'key-acme-1');
      const given = new ProfileArticles({ apiKey: 'key-wrong-1', baseUrl, ...options });
      const fromCode = await rejectionOf(given.credits.balance(), AuthenticationError);
      expect(fromCode.message).toMatch(/ Check the API key \(from the apiKey option\)\.$/);
      expect(fromCode.message).not.toContain('PROFILE_ARTICLES_API_KEY');
      saysNothingTwice(fromCode.message);

      vi.stubEnv('PROFILE_ARTICLES_API_KEY', 'key-wrong-2');
      const read = new ProfileArticles({ baseUrl, ...options });
      const fromEnv = await rejectionOf(read.credits.balance(), AuthenticationError);
      expect(fromEnv.message).toMatch(/ Check the API key \(from PROFILE_ARTICLES_API_KEY\)\.$/);
      expect(fromEnv.message).not.toContain('apiKey option');
    },
  );
});

describe('a 404 the API never gives', () => {
  let baseUrl: string;
  let close: () => unknown;
  beforeAll(async () => {
    const mock = await startMock('http', { accounts: [{ id: 'a', apiKeys: ['key-acme-1'], credits: 100 }] });
    baseUrl = mock.baseUrl;
    close = mock.close;
  });
  afterAll(() => close());

  it.each(TRANSPORTS)(
    'with a wrong path in baseUrl, says the base URL looks wrong, over $name',
    async ({ options }) => {
      const client = new ProfileArticles({ apiKey: 'key-acme-1', baseUrl: `${baseUrl}/api/v2`, ...options });
      // One call at a time: a call made before it is awaited would reject unheard meanwhile.
      for (const call of [() => client.credits.balance(), () => client.credits.checkout(100)]) {
        const error = await rejectionOf(call(), NotFoundError);
        expect(error.message).toMatch(/\. The base URL looks wrong: /);
        expect(error.message).toContain(`${baseUrl}/api/v2 must be the API's origin alone`);
        saysNothingTwice(error.message);
      }
      // The same 404 of a read is the interface's own: no word about the base URL.
      const right = new ProfileArticles({ apiKey: 'key-acme-1', baseUrl, ...options });
      const missing = await rejectionOf(right.articles.read('nobody'), NotFoundError);
      expect(missing.message).not.toContain('base URL');
    },
  );

  describe.each(TRANSPORTS)('over $name', ({ options }) => {
    const { setup } = useScriptedServers(options);

    it('a 404 whose body is not {detail} JSON says the base URL looks wrong, even for a read', async () => {
      const html: Step = (res) => {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<h1>Not Found</h1>');
      };
      const { client, server } = await setup([html]);
      const error = await rejectionOf(client.articles.read('ada'), NotFoundError);
      expect(error.message).toMatch(/\. The base URL looks wrong: /);
      expect(error.message).toContain(`${server.url} must be the API's origin alone`);
      saysNothingTwice(error.message);
    });
  });
});

describe('a refused connection', () => {
  /** A port on this machine that nothing listens on. */
  async function closedPort(): Promise<number> {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  describe.each(TRANSPORTS)('over $name', ({ options }) => {
    const { track } = useScriptedServers(options);

    it('on generate and update says that nothing reached the server', async () => {
      const baseUrl = `http://127.0.0.1:${await closedPort()}`;
      const client = new ProfileArticles({ apiKey: 'sk-secret', baseUrl, maxRetries: 1, ...options });
      for (const call of [() => client.articles.generate('ada'), () => client.articles.update('ada')]) {
        const error = await rejectionOf(call(), ConnectionError);
        expect(error.attempts).toBe(2);
        expect(error.message).toBe(`Could not reach ${baseUrl} (ECONNREFUSED); nothing reached the server`);
      }
    });

    it('does not say so when an earlier attempt of the call reached the server', async () => {
      let server: Awaited<ReturnType<typeof scriptedServer>> | undefined;
      // Answers 500, then stops listening: the retry is refused.
      const failThenClose: Step = (res) => {
        reply(500, { detail: 'boom' })(res, undefined as never);
        res.on('finish', () => void server?.close());
      };
      server = track(await scriptedServer([failThenClose]));
      const client = new ProfileArticles({
        apiKey: 'sk-secret',
        baseUrl: server.url,
        maxRetries: 1,
        ...options,
      });
      const error = await rejectionOf(client.articles.generate('ada'), ConnectionError);
      expect(error.attempts).toBe(2);
      expect(error.message).toContain('ECONNREFUSED');
      expect(error.message).not.toContain('nothing reached');
      // The first attempt was answered 500: the server may have acted, as a retry with the key shows.
      expect(error.message).toContain(
        '; the server may have acted on the request: pass error.idempotencyKey',
      );
    });
  });
});
