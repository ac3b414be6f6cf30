// An origin typed without its scheme (`127.0.0.1:4010`, as a newcomer types it) is a usage error
// that says so and suggests the URL, wherever it is given; it was "Unexpected error: Invalid URL
// … This is a bug" from deep inside the client.
import { describe, expect, it } from 'vitest';
import { KEYS, onlyJson, useCliMock } from './helpers.js';

const h = useCliMock();
const bare = (args: string[], options: Parameters<typeof h.run>[1] = {}) =>
  h.run(args, {
    ...options,
    env: { PROFILE_ARTICLES_API_KEY: KEYS.main, PROFILE_ARTICLES_BASE_URL: undefined, ...options.env },
  });

describe('an origin without its scheme', () => {
  const cases: Array<[string, string[], Record<string, string>, string]> = [
    ['a flag', ['credits', '--base-url', '127.0.0.1:4010'], {}, '--base-url'],
    [
      'the environment',
      ['credits'],
      { PROFILE_ARTICLES_BASE_URL: '127.0.0.1:4010' },
      'PROFILE_ARTICLES_BASE_URL',
    ],
    ['login', ['login', '--base-url', '127.0.0.1:4010'], {}, '--base-url'],
    ['api', ['api', 'GET', '/credits', '--base-url', '127.0.0.1:4010'], {}, '--base-url'],
    ['a host elsewhere', ['credits', '--base-url', 'api.example.com'], {}, '--base-url'],
    ['status', ['status'], { PROFILE_ARTICLES_BASE_URL: 'localhost:4010' }, 'PROFILE_ARTICLES_BASE_URL'],
  ];
  for (const [where, args, env, from] of cases) {
    it(`in ${where} is exit 2, naming ${from} and suggesting http://`, async () => {
      const run = await bare(args, { env, input: KEYS.main });
      expect(run.code).toBe(2);
      const typed = env.PROFILE_ARTICLES_BASE_URL ?? args[args.indexOf('--base-url') + 1];
      // http for this machine (the mock), https for any other.
      const scheme = typed === 'api.example.com' ? 'https' : 'http';
      expect(run.stderr).toBe(
        `Error: ${from} must be an http:// or https:// URL: it has no scheme, got "${typed}".\nDid you mean ${scheme}://${typed}?\n`,
      );
    });
  }

  it('config set base-url says the same, and under --json the error object carries it', async () => {
    const set = await bare(['config', 'set', 'base-url', '127.0.0.1:4010']);
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('Did you mean http://127.0.0.1:4010?');
    const json = await bare(['credits', '--json', '--base-url', 'ftp://example.com']);
    expect(json.code).toBe(2);
    expect(onlyJson(json.stderr).error).toMatchObject({
      type: 'CliError',
      message: '--base-url must be an http:// or https:// URL, got "ftp://example.com".',
    });
  });

  it('never echoes a value that may hold a password', async () => {
    const run = await bare(['credits', '--base-url', 'me:s3cret@127.0.0.1:4010']);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('s3cret');
  });
});
