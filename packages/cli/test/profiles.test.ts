// Named profiles, as an operator with two accounts meets them: login to each, pick one per
// command or per shell, list them, and an upgrade from the release that stored one key.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS, onlyJson, transcript, useCliMock } from './helpers.js';

const h = useCliMock();
/** Nothing in the environment but the config folder (and what a test adds). */
const bare = (args: string[], options: Parameters<typeof h.run>[1] = {}) =>
  h.run(args, {
    ...options,
    env: { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined, ...options.env },
  });
const configFile = () => join(h.configDir, 'config.json');

async function twoAccounts() {
  expect((await bare(['login', '--base-url', h.server.url], { input: KEYS.main })).code).toBe(0);
  const poor = await bare(['login', '--profile', 'poor', '--base-url', h.server.url], { input: KEYS.poor });
  expect(poor.code).toBe(0);
  expect(poor.stdout).toMatch(/as profile poor: 50 credits/);
}

const credits = async (args: string[], env: Record<string, string | undefined> = {}) => {
  const result = await bare(['credits', '--json', ...args], { env });
  return { ...result, credits: result.code === 0 ? onlyJson(result.stdout).credits : undefined };
};

describe('named profiles', () => {
  it('reads the settings file the release before profiles wrote as the default profile, and rewrites it owner-only', async () => {
    // Exactly what that release's config-store wrote: tab-indented, mode 0600.
    writeFileSync(
      configFile(),
      `${JSON.stringify({ apiKey: KEYS.main, baseUrl: h.server.url }, null, '\t')}\n`,
      {
        mode: 0o600,
      },
    );
    expect((await credits([])).credits).toBe(1000);
    const list = onlyJson((await bare(['config', 'list', '--json'])).stdout);
    expect(list).toEqual({
      profiles: [
        { name: 'default', active: true, api_key: 'pa_t…89', api_key_in: 'file', base_url: h.server.url },
      ],
    });
    // The next write stores the new shape, the default profile kept as it was.
    expect(
      (await bare(['login', '--profile', 'poor', '--base-url', h.server.url], { input: KEYS.poor })).code,
    ).toBe(0);
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual({
      profiles: {
        default: { apiKey: KEYS.main, baseUrl: h.server.url },
        poor: { apiKey: KEYS.poor, baseUrl: h.server.url },
      },
    });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    // Written by rename: no temporary file is left beside it.
    expect(readdirSync(h.configDir)).toEqual(['config.json']);
    expect((await credits([])).credits).toBe(1000);
  });

  it('commands it prints to copy carry the --profile they were run with', async () => {
    // An operator's trial: the resume line after a timeout dropped --profile, and copied it
    // failed (no default profile) or could have acted on another account.
    await twoAccounts();
    const team = await bare(['login', '--profile', 'team', '--base-url', h.server.url], { input: KEYS.main });
    expect(team.code).toBe(0);
    const timedOut = await bare(['generate', 'stuck-dan', '--profile', 'team', '--timeout', '1']);
    expect(timedOut.stderr).toMatch(/Resume with: profile-articles --profile team job [0-9a-f-]{36} --wait/);
    const short = await bare(['generate', 'ada-lovelace', '--profile', 'poor']);
    expect(short.code).toBe(5);
    expect(short.stderr).toContain('`profile-articles --profile poor buy');
    // Without --profile, the commands are as before.
    const plain = await bare(['generate', 'stuck-eve', '--timeout', '1']);
    expect(plain.stderr).toMatch(/Resume with: profile-articles job /);
  });

  it('picks a profile by --profile or PROFILE_ARTICLES_PROFILE; the flag beats the environment', async () => {
    await twoAccounts();
    expect((await credits([])).credits).toBe(1000);
    expect((await credits(['--profile', 'poor'])).credits).toBe(50);
    expect((await credits([], { PROFILE_ARTICLES_PROFILE: 'poor' })).credits).toBe(50);
    expect((await credits(['--profile', 'default'], { PROFILE_ARTICLES_PROFILE: 'poor' })).credits).toBe(
      1000,
    );
    // --api-key beats every profile.
    expect((await credits(['--profile', 'poor', '--api-key', KEYS.main])).credits).toBe(1000);
  });

  it('with --profile and PROFILE_ARTICLES_API_KEY both set, the profile wins and one stderr line says so', async () => {
    await twoAccounts();
    const run = await bare(['credits', '--profile', 'poor'], {
      env: { PROFILE_ARTICLES_API_KEY: KEYS.main },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/50 credits/);
    const lines = run.stderr.split('\n').filter((l) => /PROFILE_ARTICLES_API_KEY/.test(l));
    expect(lines).toEqual([
      'Using the key of profile "poor" (--profile); PROFILE_ARTICLES_API_KEY is set too and is not used.',
    ]);
    const status = onlyJson(
      (
        await bare(['status', '--json', '--profile', 'poor'], {
          env: { PROFILE_ARTICLES_API_KEY: KEYS.main },
        })
      ).stdout,
    );
    expect(status).toMatchObject({
      profile: 'poor',
      profile_source: 'flag',
      other_profiles: ['default'],
      api_key: 'pa_t…89',
      api_key_source: 'config',
      key_choice: lines[0],
      balance: { credits: 50 },
    });
    // login checks and stores the key it is given: the environment's key is no rival there.
    const login = await bare(['login', '--profile', 'poor'], {
      input: KEYS.poor,
      env: { PROFILE_ARTICLES_API_KEY: KEYS.main },
    });
    expect(login.code).toBe(0);
    expect(login.stderr).not.toMatch(/PROFILE_ARTICLES_API_KEY/);
    // PROFILE_ARTICLES_PROFILE is weaker than the environment's key: that key is used, silently.
    const env = await bare(['credits'], {
      env: { PROFILE_ARTICLES_API_KEY: KEYS.main, PROFILE_ARTICLES_PROFILE: 'poor' },
    });
    expect(env.stdout).toMatch(/1000 credits/);
    expect(env.stderr).not.toMatch(/PROFILE_ARTICLES_API_KEY/);
  });

  it('status names the profile in use and lists the others', async () => {
    await twoAccounts();
    const status = await bare(['status'], { env: { PROFILE_ARTICLES_PROFILE: 'poor' } });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      /^profile +poor \(from PROFILE_ARTICLES_PROFILE\); others stored: default$/m,
    );
    expect(status.stdout).toMatch(/^balance +50 credits$/m);
  });

  it('config list shows every profile with its key masked and marks the one in use', async () => {
    await twoAccounts();
    const list = await bare(['config', 'list', '--profile', 'poor']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n').filter(Boolean)).toEqual([
      `  default  pa_t…89  ${h.server.url}  (key in file)`,
      `* poor     pa_t…89  ${h.server.url}  (key in file)`,
    ]);
  });

  it('config and logout act on the named profile only', async () => {
    await twoAccounts();
    expect((await bare(['config', 'set', 'base-url', 'http://127.0.0.1:9', '--profile', 'poor'])).code).toBe(
      0,
    );
    expect((await bare(['config', 'get', 'base-url'])).stdout).toContain(h.server.url);
    const get = onlyJson((await bare(['config', 'get', 'base-url', '--json', '--profile', 'poor'])).stdout);
    expect(get).toEqual({ name: 'base-url', value: 'http://127.0.0.1:9', source: 'config', profile: 'poor' });
    const logout = await bare(['logout', '--profile', 'poor']);
    expect(logout.stdout).toMatch(/Removed the stored API key of profile poor/);
    expect((await credits([])).credits).toBe(1000);
    expect((await bare(['credits', '--profile', 'poor'])).code).toBe(4);
  });

  it('never fills a named profile from default: a key stays with its own origin', async () => {
    await twoAccounts();
    // A profile with a key and no origin: the default's origin is not borrowed for it.
    await bare(['config', 'unset', 'base-url', '--profile', 'poor']);
    const run = await bare(['credits', '--profile', 'poor']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Error: No API origin is set/);
  });

  it('refuses a profile that is not stored, and a name that cannot be one, before any request', async () => {
    await twoAccounts();
    const missing = await bare(['credits', '--profile', 'staging']);
    expect(missing.code).toBe(2);
    // It names the profiles that exist, and the nearest one to a slip of the fingers.
    expect(missing.stderr).toBe(
      'Error: No profile named "staging" is stored (from --profile). The stored profiles are default and poor.\n' +
        '`profile-articles login --profile staging` stores one.\n',
    );
    const env = await bare(['credits'], { env: { PROFILE_ARTICLES_PROFILE: 'pooor' } });
    expect(env.stderr).toMatch(
      /^Error: No profile named "pooor" is stored \(from PROFILE_ARTICLES_PROFILE\)\. The stored profiles are default and poor \(did you mean poor\?\)\./,
    );
    const none = await bare(['credits', '--profile', 'staging'], {
      env: { PROFILE_ARTICLES_CONFIG_DIR: `${h.configDir}/empty` },
    });
    expect(none.stderr).toMatch(
      /^Error: No profile named "staging" is stored \(from --profile\)\. No profile is stored yet\./,
    );
    const bad = await bare(['credits', '--profile', '../etc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: --profile must be a profile name/);
  });

  it('config use makes a stored profile the default, as gh auth switch; --profile and PROFILE_ARTICLES_PROFILE still win', async () => {
    await twoAccounts();
    const use = await bare(['config', 'use', 'poor']);
    expect(use.code).toBe(0);
    expect(use.stdout).toBe(
      'Commands now use profile poor unless --profile or PROFILE_ARTICLES_PROFILE names another.\n',
    );
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).activeProfile).toBe('poor');
    expect((await credits([])).credits).toBe(50);
    expect((await credits(['--profile', 'default'])).credits).toBe(1000);
    expect((await credits([], { PROFILE_ARTICLES_PROFILE: 'default' })).credits).toBe(1000);
    const status = await bare(['status']);
    expect(status.stdout).toMatch(/^profile +poor \(from `config use`\); others stored: default$/m);
    expect(onlyJson((await bare(['status', '--json'])).stdout)).toMatchObject({
      profile: 'poor',
      profile_source: 'config',
    });
    expect(
      onlyJson((await bare(['config', 'list', '--json'])).stdout).profiles.map((p: any) => p.active),
    ).toEqual([false, true]);
    // login and logout act on it too.
    expect((await bare(['logout'])).stdout).toMatch(/of profile poor/);
    expect((await bare(['credits'])).code).toBe(4);
    // `config use default` goes back; a profile that is gone is no longer the default.
    expect((await bare(['config', 'use', 'default'])).code).toBe(0);
    expect((await credits([])).credits).toBe(1000);
    expect((await bare(['config', 'use', 'poor'])).code).toBe(0);
    expect((await bare(['config', 'unset', 'base-url'])).code).toBe(0);
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).activeProfile).toBeUndefined();
    expect((await credits([])).credits).toBe(1000);
  });

  it('config use of a profile that is not stored is a usage error naming the stored ones', async () => {
    await twoAccounts();
    const use = await bare(['config', 'use', 'stagin']);
    expect(use.code).toBe(2);
    expect(use.stderr).toMatch(
      /^Error: No profile named "stagin" is stored\. The stored profiles are default, poor\./,
    );
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).activeProfile).toBeUndefined();
    const bad = await bare(['config', 'use', '../x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: config use must be a profile name/);
  });

  it('names a broken settings file without echoing it, and logout starts it afresh', async () => {
    // A key pasted where a profile name goes: the file is refused, and the key is never shown.
    writeFileSync(
      configFile(),
      JSON.stringify({ profiles: { [`my key ${KEYS.limited}`]: { baseUrl: h.server.url } } }),
      {
        mode: 0o600,
      },
    );
    const run = await bare(['credits']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`The settings file ${configFile()} cannot be used`);
    expect(run.stderr).not.toContain('LIMITKEY');
    expect((await bare(['config', 'list'])).stderr).not.toContain('LIMITKEY');
    expect((await bare(['logout'])).code).toBe(0);
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual({ profiles: {} });
  });
});

afterAll(() => {
  const all = transcript.join('\n');
  for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
});
