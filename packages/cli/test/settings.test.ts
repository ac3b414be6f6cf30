import { readFileSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS, onlyJson, transcript, useCliMock } from './helpers.js';

const h = useCliMock();
/** Runs with nothing in the environment but the config folder: only stored settings count. */
const bare = (args: string[], options: Parameters<typeof h.run>[1] = {}) =>
  h.run(args, {
    ...options,
    env: { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined, ...options.env },
  });

describe('login, logout and config', () => {
  it('login reads the key from piped stdin, checks it and stores it readable by the owner only', async () => {
    const login = await bare(['login', '--base-url', h.server.url], { input: `${KEYS.main}\n` });
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(/Logged in to http:\/\/127\.0\.0\.1:\d+: 1000 credits/);
    const path = (await bare(['config', 'path'])).stdout.trim();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      profiles: { default: { apiKey: KEYS.main, baseUrl: h.server.url } },
    });
    // Stored settings are enough to work.
    expect(onlyJson((await bare(['credits', '--json'])).stdout).credits).toBe(1000);
  });

  it('login refuses a wrong key and stores nothing', async () => {
    const login = await bare(['login', '--base-url', h.server.url], { input: 'pa_test_WRONGKEY_000000\n' });
    expect(login.code).toBe(4);
    // It says nothing was kept and what to do, not "run `profile-articles login`", the command
    // just run (a newcomer's trial).
    expect(login.stderr).toContain('Nothing was saved');
    expect(login.stderr).not.toContain('run `profile-articles login`');
    const get = await bare(['config', 'get', 'api-key']);
    expect(get.code).toBe(1);
  });

  it('login and config set refuse a key under 8 characters (exit 2, one line, the key not echoed) and store nothing', async () => {
    const login = await bare(['login', '--base-url', h.server.url], { input: 'Kp4x9\n' });
    expect(login.code).toBe(2);
    expect(login.stderr.split('\n')[0]).toMatch(/^Error: The API key is too short: .*at least 8 characters/);
    expect(login.stderr).not.toContain('Kp4x9');
    const set = await bare(['config', 'set', 'api-key', 'Kp4x9']);
    expect(set.code).toBe(2);
    expect(set.stderr).toMatch(/at least 8 characters/);
    expect(set.stderr).not.toContain('Kp4x9');
    expect((await bare(['config', 'get', 'api-key'])).code).toBe(1); // nothing stored
  });

  it('config get api-key shows a masked key: first 4 and last 2 characters at most', async () => {
    await bare(['config', 'set', 'api-key', KEYS.main]);
    const get = await bare(['config', 'get', 'api-key']);
    expect(get.stdout).toContain(`${KEYS.main.slice(0, 4)}…${KEYS.main.slice(-2)}`);
    expect(get.stdout).toContain('(from config, profile default)');
    const json = onlyJson((await bare(['config', 'get', 'api-key', '--json'])).stdout);
    expect(json).toEqual({ name: 'api-key', value: 'pa_t…89', source: 'config', profile: 'default' });
  });

  it('config set validates names and URLs; unset removes', async () => {
    expect((await bare(['config', 'set', 'colour', 'blue'])).code).toBe(2);
    expect((await bare(['config', 'set', 'base-url', 'ftp://x'])).code).toBe(2);
    expect((await bare(['config', 'set', 'base-url', h.server.url])).code).toBe(0);
    expect((await bare(['config', 'get', 'base-url'])).stdout).toContain(h.server.url);
    expect((await bare(['config', 'unset', 'base-url'])).code).toBe(0);
    expect((await bare(['config', 'get', 'base-url'])).code).toBe(1);
  });

  it('logout removes the stored key and says it is not revoked', async () => {
    await bare(['login', '--base-url', h.server.url], { input: KEYS.main });
    const logout = await bare(['logout']);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toMatch(/not revoked/);
    expect((await bare(['credits'])).code).toBe(4);
  });

  it('takes settings from the flag, else the environment, else the stored config', async () => {
    await bare(['login', '--base-url', h.server.url], { input: KEYS.main });
    const wrong = 'pa_test_WRONGKEY_000000';
    // environment beats config
    expect((await bare(['credits'], { env: { PROFILE_ARTICLES_API_KEY: wrong } })).code).toBe(4);
    // flag beats environment
    expect(
      (await bare(['credits', '--api-key', KEYS.poor], { env: { PROFILE_ARTICLES_API_KEY: wrong } })).stdout,
    ).toMatch(/50 credits/);
    // the same for the origin: a flag pointing nowhere beats a good environment and config (with
    // a key given for it: the stored key goes only to its own origin, key-origin.test.ts)
    const nowhere = await bare(['credits', '--base-url', 'http://127.0.0.1:9', '--api-key', KEYS.main], {
      env: { PROFILE_ARTICLES_BASE_URL: h.server.url },
    });
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(/Could not reach/);
    const storedKey = await bare(['credits', '--base-url', 'http://127.0.0.1:9'], {
      env: { PROFILE_ARTICLES_BASE_URL: h.server.url },
    });
    expect(storedKey.code).toBe(2);
    const envUrl = await bare(['config', 'get', 'base-url', '--json'], {
      env: { PROFILE_ARTICLES_BASE_URL: 'http://env.example' },
    });
    expect(onlyJson(envUrl.stdout)).toEqual({
      name: 'base-url',
      value: 'http://env.example',
      source: 'environment',
      profile: 'default',
    });
  });

  it('accepts global options before or after the command', async () => {
    const before = await h.run(['--json', 'credits']);
    const after = await h.run(['credits', '--json']);
    expect(onlyJson(before.stdout)).toEqual(onlyJson(after.stdout));
  });
});

describe('completion and mock', () => {
  it.each(['bash', 'zsh', 'fish'])('prints a %s completion script that asks the CLI', async (shell) => {
    const result = await h.run(['completion', shell]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('profile-articles __complete');
  });

  it('__complete offers every command, and never the hidden --api-key', async () => {
    const commands = (await h.run(['__complete', ''])).stdout.trim().split('\n');
    for (const command of [
      'read',
      'generate',
      'update',
      'job',
      'credits',
      'status',
      'buy',
      'login',
      'logout',
      'config',
      'mock',
      'completion',
    ]) {
      expect(commands).toContain(command);
    }
    const flags = (await h.run(['__complete', 'generate', 'x', '--'])).stdout;
    expect(flags).toContain('--no-wait');
    expect(flags).not.toContain('--api-key');
  });

  it('runs the mock server in the foreground and stops on SIGTERM', async () => {
    let url = '';
    const result = await h.cli(['mock', '--port', '0'], {
      onOutput: {
        match: /listening on (http:\S+)/,
        run: (child, match) => {
          url = match[1]!;
          fetch(`${url}/api/v1/credits`, { headers: { authorization: 'Bearer demo-key' } })
            .then((r) => r.json())
            .then((body) => {
              url = `${url} ${body.credits}`;
              child.kill('SIGTERM');
            });
        },
      },
    });
    expect(result.code).toBe(0);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+ 1000$/);
  });
});

afterAll(() => {
  const all = transcript.join('\n');
  for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
});
