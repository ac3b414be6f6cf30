import { describe, expect, it } from 'vitest';
import { parseVerifyArgs, UsageError, VERIFY_USAGE } from './cli-args.js';
import { runVerifyCommand } from './command.js';

const env = {
  PROFILE_ARTICLES_API_KEY: 'env-key-0',
  PROFILE_ARTICLES_BASE_URL: 'https://staging.example.com',
};

function options(argv: string[], environment: NodeJS.ProcessEnv = env) {
  const parsed = parseVerifyArgs(argv, environment);
  if (parsed.help) throw new Error('help');
  return parsed.options;
}

describe('verify arguments', () => {
  it('takes the key and origin from the environment, spends nothing and polls every 10 s by default', () => {
    expect(options([])).toEqual({
      origin: 'https://staging.example.com',
      apiKey: 'env-key-0',
      spend: 0,
      checkRateLimit: false,
      pollIntervalMs: 10_000,
    });
  });

  it('lets flags win over the environment', () => {
    const parsed = options([
      '--api-key',
      'flag-key',
      '--base-url',
      'http://127.0.0.1:4010',
      '--spend',
      '201',
    ]);
    expect(parsed).toMatchObject({ apiKey: 'flag-key', origin: 'http://127.0.0.1:4010', spend: 201 });
  });

  it('reads a base URL as the SDK does: a path prefix stays, a trailing /api/v1/ goes', () => {
    expect(options(['--base-url', 'https://host.example/staging/api/v1/']).origin).toBe(
      'https://host.example/staging',
    );
  });

  it('refuses bad usage with a UsageError naming the problem', () => {
    expect(() => options([], {})).toThrow(/PROFILE_ARTICLES_API_KEY/);
    expect(() => options([], { PROFILE_ARTICLES_API_KEY: 'test-key' })).toThrow(/PROFILE_ARTICLES_BASE_URL/);
    expect(() => options(['--spend', '-1'])).toThrow(/--spend/);
    expect(() => options(['--spend', '1.5'])).toThrow(UsageError);
    expect(() => options(['--base-url', 'ftp://host'])).toThrow(/http or https/);
    expect(() => options(['--base-url', 'https://user:secret@host'])).toThrow(/user:password/);
    expect(() => options(['--nope'])).toThrow(UsageError);
  });

  it('reads PROFILE_ARTICLES_POLL_INTERVAL in seconds', () => {
    expect(options([], { ...env, PROFILE_ARTICLES_POLL_INTERVAL: '2' }).pollIntervalMs).toBe(2000);
    // A fraction, as the CLI reads the same variable; no other spelling of a number.
    expect(options([], { ...env, PROFILE_ARTICLES_POLL_INTERVAL: '0.2' }).pollIntervalMs).toBe(200);
    for (const raw of ['1e3', '0x10', ' 5', '-1', '.5', '5.', '2147484']) {
      expect(() => options([], { ...env, PROFILE_ARTICLES_POLL_INTERVAL: raw }), raw).toThrow(
        /PROFILE_ARTICLES_POLL_INTERVAL must be a number of seconds from 0 to 2147483/,
      );
    }
  });

  it('takes --spend only as plain digits within a safe integer', () => {
    for (const raw of ['1e3', '0x10', ' 5', '5 ', '+5', '', '9007199254740993', '-1']) {
      expect(() => options(['--spend', raw]), raw).toThrow(/--spend must be a whole number of 0 or more/);
    }
    expect(() => options(['--spend=-1'])).toThrow(/--spend must be a whole number of 0 or more, got "-1"/);
    expect(options(['--spend', '007']).spend).toBe(7);
  });

  it('refuses an empty --profile or --generate-profile', () => {
    expect(() => options(['--profile', ''])).toThrow(/--profile/);
    expect(() => options(['--generate-profile', ''])).toThrow(/--generate-profile/);
  });

  it('says where the key came from', () => {
    const fromEnv = parseVerifyArgs([], env);
    const fromFlag = parseVerifyArgs(['--api-key', 'flag-key'], env);
    expect(!fromEnv.help && fromEnv.keyFrom).toBe('PROFILE_ARTICLES_API_KEY');
    expect(!fromFlag.help && fromFlag.keyFrom).toBe('--api-key');
  });

  it('documents in its usage that a flag overrides the environment, and the poll interval', () => {
    expect(VERIFY_USAGE).toContain('a flag overrides');
    expect(VERIFY_USAGE).not.toContain('preferred over the flags');
    expect(VERIFY_USAGE).toContain('PROFILE_ARTICLES_POLL_INTERVAL');
  });

  it('refuses a key the SDK would refuse (under 8 characters, or a space) with one line, exit 2, the key not echoed', async () => {
    // Shorter keys could be ordinary words, which scrubbing the key would rewrite in the report.
    for (const [key, flag] of [
      ['Zq7#xW', false],
      ['Zq7#xWv', true],
      ['Zq7 xWvQ9', false],
    ] as const) {
      let stderr = '';
      let stdout = '';
      const code = await runVerifyCommand(
        flag ? ['--api-key', key] : [],
        { ...env, ...(flag ? {} : { PROFILE_ARTICLES_API_KEY: key }) },
        { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
        // Never reached: a refused key sends nothing.
        { fetch: () => Promise.reject(new Error('a request was sent')) },
      );
      expect(code, key).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n'), key).toHaveLength(1);
      expect(stderr).toMatch(/API key/);
      expect(stderr).not.toContain(key);
    }
  });
});
