// Log levels against the real mock over HTTP, over both transports: `info` a line per call,
// `debug` one more per attempt, `warn` the SDK's own warnings, every line redacted; the
// level from the option, else PROFILE_ARTICLES_LOG; a logger lacking a method still works.
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { reply, scriptedServer } from '@profile-articles/test-utils/scripted-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ClientOptions,
  InvalidArgumentError,
  type Logger,
  type LogLevel,
  ProfileArticles,
  RateLimitError,
} from '../src/node.js';
import { TRANSPORTS } from './scripted-client.js';

const KEY = 'log-key-VERY-SECRET';
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    config: { accounts: [{ id: 'acme', apiKeys: [KEY], credits: 1000 }] },
  });
});
afterAll(() => mock.close());
beforeEach(() => mock.service.reset());
afterEach(() => vi.unstubAllEnvs());

type Level = Exclude<LogLevel, 'off'>;

/** A logger with all four methods, keeping each line under its level. */
function recorder() {
  const lines: Array<{ level: Level; line: string }> = [];
  const logger: Required<Logger> = {
    error: (line) => lines.push({ level: 'error', line }),
    warn: (line) => lines.push({ level: 'warn', line }),
    info: (line) => lines.push({ level: 'info', line }),
    debug: (line) => lines.push({ level: 'debug', line }),
  };
  const count = (level: Level) => lines.filter((l) => l.level === level).length;
  return { lines, logger, count };
}

describe.each(TRANSPORTS)('log levels over $name', ({ options }) => {
  const client = (more: ClientOptions) =>
    new ProfileArticles({ ...options, apiKey: KEY, baseUrl: mock.url, ...more });

  /**
   * Two calls: a balance that answers at once, and one that meets a 429 (Retry-After 0) on
   * both of its attempts: 2 calls, 3 attempts.
   */
  async function twoCalls(sdk: ProfileArticles) {
    await sdk.credits.balance();
    mock.service.setFaults({
      seed: 1,
      rules: [{ kind: 'rate-limit', route: 'GET /api/v1/credits', probability: 1, retryAfterSeconds: 0 }],
    });
    await rejectionOf(sdk.credits.balance({ maxRetries: 1 }), RateLimitError);
  }

  it.each([
    ['off', { info: 0, debug: 0 }],
    ['error', { info: 0, debug: 0 }],
    ['warn', { info: 0, debug: 0 }],
    ['info', { info: 2, debug: 0 }],
    ['debug', { info: 2, debug: 3 }],
  ] as const)('%s: %o lines for 2 calls of 3 attempts', async (logLevel, expected) => {
    const { logger, count, lines } = recorder();
    await twoCalls(client({ logger, logLevel }));
    expect(count('info')).toBe(expected.info);
    expect(count('debug')).toBe(expected.debug);
    // Nothing the SDK does logs at error: a failure reaches the caller as a rejection.
    expect(count('error') + count('warn')).toBe(0);
    if (logLevel === 'debug') {
      const text = lines.map((l) => l.line).join('\n');
      expect(text).toMatch(/GET http:\/\/\S+\/api\/v1\/credits attempt 1: 200 in \d+ ms/);
      expect(text).toMatch(/attempt 1: .*429.* in \d+ ms; retrying in 500 ms/);
      expect(text).toMatch(/GET \S+ failed in \d+ ms \(2 attempts\): /);
    }
  });

  it('takes the level from PROFILE_ARTICLES_LOG when the option is absent; the option wins', async () => {
    vi.stubEnv('PROFILE_ARTICLES_LOG', 'debug');
    const fromEnv = recorder();
    await client({ logger: fromEnv.logger }).credits.balance();
    expect([fromEnv.count('info'), fromEnv.count('debug')]).toEqual([1, 1]);
    const fromOption = recorder();
    await client({ logger: fromOption.logger, logLevel: 'info' }).credits.balance();
    expect([fromOption.count('info'), fromOption.count('debug')]).toEqual([1, 0]);
  });

  it('a logger lacking a method still works: today’s `{ debug }` logger hears the debug level', async () => {
    const heard: string[] = [];
    const sdk = client({ logger: { debug: (line) => heard.push(line) }, logLevel: 'debug' });
    await sdk.credits.balance();
    expect(heard).toHaveLength(1);
    // And at the default level it hears nothing: a debug line is below `warn`.
    const quiet: string[] = [];
    await client({ logger: { debug: (line) => quiet.push(line) } }).credits.balance();
    expect(quiet).toEqual([]);
  });

  it('logs to the console by default, saying whose line it is', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    try {
      await client({ logLevel: 'info' }).credits.balance();
      expect(info).toHaveBeenCalledTimes(1);
      expect(info.mock.calls[0]?.[0]).toMatch(/^profile-articles: GET \S+\/api\/v1\/credits: 200 in/);
    } finally {
      info.mockRestore();
    }
  });
});

describe('the plain http warning', () => {
  it('goes through logger.warn once per client, for plain http to another machine only', () => {
    const { logger, lines } = recorder();
    const make = (baseUrl: string, logLevel?: LogLevel) =>
      new ProfileArticles({ apiKey: KEY, baseUrl, logger, ...(logLevel ? { logLevel } : {}) });
    make('http://api.example.com');
    expect(lines).toEqual([
      {
        level: 'warn',
        line: 'http://api.example.com is plain http to another machine: your API key travels unencrypted. Use https.',
      },
    ]);
    for (const quiet of [
      'https://api.example.com',
      'http://127.0.0.1:9',
      'http://127.8.9.10',
      'http://localhost:9',
      'http://api.localhost',
      'http://[::1]:9',
    ])
      make(quiet);
    // Loopback as the URL parser writes an address; a name that merely starts like one is a name.
    make('http://127.1:9');
    make('http://127.0.0.1.evil.example', 'error');
    make('http://127.evil.example', 'error');
    make('http://10.0.0.5:4010', 'error');
    make('http://10.0.0.5:4010', 'off');
    expect(lines).toHaveLength(1);
    make('http://10.0.0.5:4010', 'debug');
    make('http://127.0.0.1.evil.example');
    make('http://127.evil.example');
    expect(lines).toHaveLength(4);
  });

  it('a logger without warn is not called for it, and the client still works', () => {
    expect(() => new ProfileArticles({ apiKey: KEY, baseUrl: 'http://x.example', logger: {} })).not.toThrow();
  });
});

describe('logLevel and PROFILE_ARTICLES_LOG', () => {
  it('an unknown level is an InvalidArgumentError naming where it came from', () => {
    const make = (logLevel?: string) =>
      new ProfileArticles({ apiKey: KEY, baseUrl: 'https://x.example', logLevel: logLevel as LogLevel });
    expect(() => make('verbose')).toThrow(InvalidArgumentError);
    expect(() => make('verbose')).toThrow(
      'logLevel must be one of off, error, warn, info, debug; got "verbose"',
    );
    expect(() => make('info')).not.toThrow();
  });

  it('an unknown PROFILE_ARTICLES_LOG warns once, through the logger, and the client logs at the default', async () => {
    // A service must not fail to start for a setting of its environment, as openai-node does not.
    vi.stubEnv('PROFILE_ARTICLES_LOG', 'verbose');
    const { logger, lines } = recorder();
    const sdk = new ProfileArticles({ apiKey: KEY, baseUrl: mock.url, logger });
    expect(lines).toEqual([
      {
        level: 'warn',
        line: 'PROFILE_ARTICLES_LOG is "verbose", not one of off, error, warn, info, debug: logging at warn, the default',
      },
    ]);
    // warn, the default: no line per call or attempt, and no second warning.
    await sdk.credits.balance();
    expect(lines).toHaveLength(1);
    // The option still wins over the environment, and is still checked.
    expect(
      () => new ProfileArticles({ apiKey: KEY, baseUrl: mock.url, logger, logLevel: 'off' }),
    ).not.toThrow();
    expect(lines).toHaveLength(1);
    expect(
      () => new ProfileArticles({ apiKey: KEY, baseUrl: mock.url, logLevel: 'DEBUG' as LogLevel }),
    ).toThrow(InvalidArgumentError);
  });
});

describe('every line is redacted', () => {
  it.each(TRANSPORTS)('of a key the server echoes, over $name', async ({ options }) => {
    const server = await scriptedServer([
      reply(503, { detail: `no capacity for ${KEY}` }, { 'retry-after': '0' }),
      reply(409, { detail: `key ${KEY} is busy` }),
    ]);
    try {
      const { logger, lines } = recorder();
      const sdk = new ProfileArticles({
        ...options,
        apiKey: KEY,
        baseUrl: server.url,
        logger,
        logLevel: 'debug',
        maxRetries: 1,
      });
      await rejectionOf(sdk.articles.generate('ada'));
      const text = lines.map((l) => l.line).join('\n');
      expect(lines.length).toBe(3);
      expect(text).toContain('[redacted]');
      expect(text).not.toContain('VERY-SECRET');
    } finally {
      await server.close();
    }
  });
});
