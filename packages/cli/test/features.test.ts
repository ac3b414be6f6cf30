// Features a gh or Stripe CLI user expects, run in-process: status, --verbose, JSON errors,
// help with global options and examples, hints that fit the command and status.
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS, onlyJson, transcript, useCliMock } from './helpers.js';

const h = useCliMock();
const lastJsonLine = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!);

describe('status', () => {
  it('shows origin, masked key, their sources, balance, rate limit and config file; exit 0', async () => {
    const result = await h.run(['status']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      'profile      default',
      `origin       ${h.server.url} (from environment)`,
      'api key      pa_t…89 (from environment)',
      'balance      1000 credits',
      'rate limit   120 requests per minute',
      `config file  ${h.configDir}/config.json`,
    ]);
  });

  it('--json prints exactly the documented fields', async () => {
    const result = await h.run(['status', '--json']);
    const shown = onlyJson(result.stdout);
    expect(Object.keys(shown)).toEqual([
      'profile',
      'profile_source',
      'other_profiles',
      'base_url',
      'base_url_source',
      'api_key',
      'api_key_source',
      'api_key_in',
      'config_path',
      'key_choice',
      'balance',
    ]);
    expect(shown).toMatchObject({
      base_url_source: 'environment',
      api_key: 'pa_t…89',
      api_key_source: 'environment',
    });
    expect(shown.balance.credits).toBe(1000);
  });

  it('exit 4 for a refused or missing key, 2 without an origin, showing the rest', async () => {
    const refused = await h.run(['status', '--json'], {
      env: { PROFILE_ARTICLES_API_KEY: 'pa_test_WRONGKEY_000000' },
    });
    expect(refused.code).toBe(4);
    expect(onlyJson(refused.stdout)).toMatchObject({ balance: null, base_url: h.server.url });
    expect(lastJsonLine(refused.stderr).error.type).toBe('AuthenticationError');
    const missing = await h.run(['status'], { env: { PROFILE_ARTICLES_API_KEY: undefined } });
    expect(missing.code).toBe(4);
    expect(missing.stdout).toMatch(/api key\s+not set/);
    const noOrigin = await h.run(['status'], { env: { PROFILE_ARTICLES_BASE_URL: undefined } });
    expect(noOrigin.code).toBe(2);
    expect(noOrigin.stdout).toMatch(/origin\s+not set/);
  });
});

describe('--verbose', () => {
  it('one line per HTTP attempt on stderr, never the key', async () => {
    const result = await h.run(['generate', 'ada-lovelace', '--verbose']);
    expect(result.code).toBe(0);
    const http = result.stderr.split('\n').filter((l) => l.startsWith('http '));
    expect(http[0]).toMatch(
      /^http POST \/api\/v1\/articles · 202 · request req_\d+ · \d+ ms · attempt 1 · idempotency key \S+$/,
    );
    expect(
      http.some((l) =>
        /^http GET \/api\/v1\/jobs\/[0-9a-f-]{36} · 200 · request req_\d+ · \d+ ms · attempt 1$/.test(l),
      ),
    ).toBe(true);
    expect(result.stderr).not.toContain(KEYS.main);
  });

  it('under --json the lines are {"http": …} objects, and the error object comes last', async () => {
    const result = await h.run(['read', 'nobody', '--json', '--verbose']);
    expect(result.code).toBe(1);
    const lines = result.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].http).toMatchObject({
      method: 'GET',
      path: '/api/v1/articles/nobody',
      status: 404,
      attempt: 1,
    });
    expect(lines.at(-1).error).toMatchObject({ type: 'NotFoundError', status: 404 });
  });
});

describe('help', () => {
  it('every subcommand lists the global options and examples; help <command> works', async () => {
    for (const args of [
      ['generate', '--help'],
      ['help', 'generate'],
      ['config', 'set', '--help'],
      ['status', '--help'],
    ]) {
      const result = await h.run(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toContain('Global Options:');
      expect(result.stdout).toContain('--base-url <url>');
      expect(result.stdout).toContain('--verbose');
    }
    const generate = (await h.run(['help', 'generate'])).stdout;
    expect(generate).toContain('$ profile-articles generate ada-lovelace');
    expect((await h.run(['--help'])).stdout).toMatch(/Examples:\n(\s+\$ profile-articles .+\n){3}/);
    expect((await h.run(['login', '--help'])).stdout).toContain('--base-url URL');
  });
});

describe('hints that fit the command and status', () => {
  it('404 on generate does not suggest generate', async () => {
    const result = await h.run(['generate', 'notfound-someone']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: Not found \(404\)\./);
    expect(result.stderr).not.toContain('profile-articles generate');
  });

  it('409 with --idempotency-key says the key may belong to something else; without it, another job', async () => {
    await h.run(['generate', 'stuck-one', '--no-wait', '--idempotency-key', 'shared-key']);
    const reused = await h.run(['generate', 'stuck-two', '--no-wait', '--idempotency-key', 'shared-key']);
    expect(reused.code).toBe(1);
    expect(reused.stderr).toMatch(/idempotency key may belong to another profile or operation/);
    const busy = await h.run(['generate', 'stuck-one', '--no-wait']);
    expect(busy.stderr).toMatch(/Another job is active for this profile/);
  });

  it('401 reads as two sentences', async () => {
    const result = await h.run(['credits'], { env: { PROFILE_ARTICLES_API_KEY: 'pa_test_WRONGKEY_000000' } });
    expect(result.stderr.split('\n')[0]).toMatch(/^Error: The API key was refused \(401\)\. [A-Z][^.]*\.$/);
  });

  it('after a job, what it cost and what is left; plurals are right', async () => {
    const result = await h.run(['generate', 'ada-lovelace']);
    expect(result.stderr).toMatch(/^100 credits charged · 900 credits left$/m);
    const read = await h.run(['read', 'ada-lovelace']);
    expect(read.stderr).toMatch(/^1 credit charged · 899 credits left$/m);
  });
});

afterAll(() => {
  const all = transcript.join('\n');
  for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
  expect(all).not.toContain('WRONGKEY');
});

describe('timer limits', () => {
  it('a --timeout or --poll-interval past what a timer holds is a usage error before anything is paid', async () => {
    const balance = h.server.service.balance('main');
    const timeout = await h.run(['generate', 'huge-timeout', '--timeout', '2147484']);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('--timeout must be a number of seconds from 1 to 2147483');
    const poll = await h.run(['--poll-interval', '3000000', 'generate', 'huge-poll']);
    expect(poll.code).toBe(2);
    expect(poll.stderr).toContain('--poll-interval must be a number of seconds from 0 to 2147483');
    expect(h.server.service.balance('main')).toBe(balance);
  });
});

describe('the 404 hint of update', () => {
  it('says to generate the article first, not to check the slug', async () => {
    const result = await h.run(['update', 'nobody-here', '--no-wait']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('There is no article to update yet');
    expect(result.stderr).not.toContain('check the slug');
  });
});
