// What the third newcomer trial found (issue 26, "Fix"): the two commands that check settings
// disagreeing about what is missing, hints that send `status` to `status` or a bad origin to a
// "profile slug or job id", the 10 s poll against a local mock, and `buy 1e3` read as 1000.
// In-process against the real mock: none of it needs a terminal.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Context } from '../src/settings/context.js';
import { useCliMock } from './helpers.js';

const h = useCliMock();
const lines = (stderr: string) => stderr.trimEnd().split('\n');
const UNSET = { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined };

/** A loopback port where nothing listens: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('with settings missing, credits and status say the same thing', () => {
  it.each([
    ['nothing', UNSET, 'Error: No API origin and no API key are set.', 2],
    ['no key', { PROFILE_ARTICLES_API_KEY: undefined }, 'Error: No API key is set.', 4],
    ['no origin', { PROFILE_ARTICLES_BASE_URL: undefined }, 'Error: No API origin is set.', 2],
  ] as const)('%s', async (_, env, message, code) => {
    const credits = await h.run(['credits'], { env });
    const status = await h.run(['status'], { env });
    expect(lines(credits.stderr)[0]).toBe(message);
    expect(lines(status.stderr)).toEqual(lines(credits.stderr));
    expect([credits.code, status.code]).toEqual([code, code]);
  });

  it('with nothing set, the hint sets both at once', async () => {
    const { stderr } = await h.run(['credits'], { env: UNSET });
    expect(lines(stderr)[1]).toBe(
      'Run `profile-articles login --base-url URL` (it stores both), or set PROFILE_ARTICLES_BASE_URL and PROFILE_ARTICLES_API_KEY.',
    );
  });
});

describe('hints that do not send you where you are', () => {
  it('status with the server down does not tell you to run status', async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await h.run(['status'], { env: { PROFILE_ARTICLES_BASE_URL: origin } });
    expect(code).toBe(1);
    expect(stderr).not.toContain('`profile-articles status`');
    expect(lines(stderr)[1]).toBe(
      'Is the service up at the origin above? Start it, or point to another with --base-url URL or `profile-articles config set base-url URL`.',
    );
  });

  it('a wrong path after the origin: credits names the origin, never a profile slug or job id', async () => {
    const origin = `${h.server.url}/api/v2`;
    const credits = await h.run(['credits', '--base-url', origin]);
    expect(credits.code).toBe(1);
    expect(credits.stderr).not.toMatch(/slug|job id/);
    expect(lines(credits.stderr)[1]).toContain(`The base URL looks wrong: ${origin}`);
    const status = await h.run(['status', '--base-url', origin]);
    expect(lines(status.stderr)[1]).toContain(`The base URL looks wrong: ${origin}`);
    expect(status.stderr).not.toContain('`profile-articles status`');
  });
});

describe('buy takes the credits as digits only', () => {
  it.each(['1e3', '0x10', '1_000', '+5', '5.0', ' 5', '٥', 'lots'])(
    'refuses %j before any request',
    async (raw) => {
      const before = h.server.service.journal().length;
      const { code, stderr } = await h.run(['buy', raw]);
      expect(code).toBe(2);
      expect(lines(stderr)).toEqual([
        `Error: credits must be a whole number above 0, in digits, got ${JSON.stringify(raw)}`,
        'Give the number of credits to buy, such as `profile-articles buy 500`.',
      ]);
      expect(h.server.service.journal().length).toBe(before);
    },
  );
});

describe('the poll interval', () => {
  const interval = async (baseUrl: string, env: Record<string, string> = {}, flag?: string) => {
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin, env };
    const ctx = new Context(io as never, { baseUrl, ...(flag ? { pollInterval: flag } : {}) });
    return (await ctx.settings()).pollIntervalMs;
  };

  it('is 1 s on a loopback origin (a local mock), 10 s elsewhere, unless one is given', async () => {
    for (const origin of [
      'http://127.0.0.1:4010',
      'http://localhost:4010',
      'http://[::1]:4010',
      'http://127.8.9.10',
    ])
      expect(await interval(origin)).toBe(1000);
    for (const origin of ['https://api.example.com', 'http://10.0.0.5:4010'])
      expect(await interval(origin)).toBe(10_000);
    // Not a URL: refused where it was given (base-url.test.ts), before any interval is chosen.
    await expect(interval('not a url')).rejects.toThrow(/--base-url must be an http:\/\/ or https:\/\/ URL/);
    expect(await interval('http://127.0.0.1:4010', { PROFILE_ARTICLES_POLL_INTERVAL: '10' })).toBe(10_000);
    expect(await interval('http://127.0.0.1:4010', {}, '5')).toBe(5000);
    expect(await interval('https://api.example.com', { PROFILE_ARTICLES_POLL_INTERVAL: '0.5' })).toBe(500);
  });
});
