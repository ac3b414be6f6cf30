// Keys in the system keyring, against a real Secret Service (gnome-keyring on a D-Bus session of
// the test's own): what login stores there and what the settings file keeps, every command
// reading it back, logout, config set, and the fallbacks to the file (a locked store, no bus, a
// store that does not answer, --insecure-storage). The CLI runs as the built bin on that bus.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI_CONFIG, KEYS, onlyJson, transcript, useCliMock } from './helpers.js';
import { type KeyringSession, keyringMissing, startKeyringSession } from './keyring-session.js';

const h = useCliMock();
let session: KeyringSession;
let other: MockServer;
const configFile = () => join(h.configDir, 'config.json');
const fileText = () => readFileSync(configFile(), 'utf8');
const account = (profile = 'default', url = h.server.url) => `${profile}@${new URL(url).origin}`;

/** The bin on the session's bus, with no key or origin in its environment. */
const cli = (args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) =>
  h.cli(args, {
    ...(options.input === undefined ? {} : { input: options.input }),
    env: {
      PROFILE_ARTICLES_API_KEY: undefined,
      PROFILE_ARTICLES_BASE_URL: undefined,
      ...session.env,
      ...options.env,
    },
  });
const login = (args: string[] = [], key = KEYS.main, env: Record<string, string | undefined> = {}) =>
  cli(['login', '--base-url', h.server.url, ...args], { input: key, env });

describe.skipIf(keyringMissing)(
  `keys in the system keyring${keyringMissing ? ` (skipped: ${keyringMissing})` : ''}`,
  () => {
    beforeAll(async () => {
      other = await startMockServer({ port: 0, config: CLI_CONFIG });
    });
    afterAll(() => other?.close());
    beforeEach(async () => {
      session = await startKeyringSession();
    });
    afterEach(() => session.stop());

    it('login stores the key in the Secret Service and the file only says so; every command reads it back; logout removes it', async () => {
      const logged = await login();
      expect(logged.code).toBe(0);
      expect(logged.stderr).toContain(
        `The key is stored in the system keyring (service profile-articles, account ${account()}).`,
      );
      expect(session.lookup(account())).toBe(KEYS.main);
      expect(JSON.parse(fileText())).toEqual({
        profiles: { default: { apiKeyIn: 'keyring', baseUrl: h.server.url } },
      });
      expect(fileText()).not.toContain(KEYS.main);

      const credits = await cli(['credits', '--json']);
      expect(credits.code).toBe(0);
      expect(onlyJson(credits.stdout).credits).toBe(1000);
      const status = onlyJson((await cli(['status', '--json'])).stdout);
      expect(status).toMatchObject({ api_key: 'pa_t…89', api_key_source: 'config', api_key_in: 'keyring' });
      expect((await cli(['status'])).stdout).toMatch(/key kept in\s+keyring/);
      const list = onlyJson((await cli(['config', 'list', '--json'])).stdout);
      expect(list.profiles).toEqual([
        { name: 'default', active: true, api_key: 'pa_t…89', api_key_in: 'keyring', base_url: h.server.url },
      ]);

      const out = await cli(['logout']);
      expect(out.code).toBe(0);
      expect(out.stdout).toContain('Removed the stored API key from the system keyring.');
      expect(session.lookup(account())).toBeUndefined();
      expect(JSON.parse(fileText())).toEqual({ profiles: { default: { baseUrl: h.server.url } } });
      expect((await cli(['credits'])).code).toBe(4);
    });

    it('login --insecure-storage keeps the key in the 0600 file, and status and config list say so', async () => {
      const logged = await login(['--insecure-storage']);
      expect(logged.code).toBe(0);
      expect(logged.stderr).toContain('(readable by you only)');
      expect(session.lookup(account())).toBeUndefined();
      expect(JSON.parse(fileText()).profiles.default).toEqual({ apiKey: KEYS.main, baseUrl: h.server.url });
      expect(statSync(configFile()).mode & 0o777).toBe(0o600);
      expect(onlyJson((await cli(['status', '--json'])).stdout).api_key_in).toBe('file');
      expect(onlyJson((await cli(['config', 'list', '--json'])).stdout).profiles[0].api_key_in).toBe('file');
      // A later login without the flag moves it into the keyring, out of the file.
      expect((await login()).code).toBe(0);
      expect(session.lookup(account())).toBe(KEYS.main);
      expect(fileText()).not.toContain(KEYS.main);
    });

    it('a key the file holds from an earlier release keeps working, and moves to the keyring at the next login only', async () => {
      writeFileSync(
        configFile(),
        `${JSON.stringify({ apiKey: KEYS.main, baseUrl: h.server.url }, null, '\t')}\n`,
        {
          mode: 0o600,
        },
      );
      expect(onlyJson((await cli(['credits', '--json'])).stdout).credits).toBe(1000);
      expect(onlyJson((await cli(['status', '--json'])).stdout).api_key_in).toBe('file');
      expect(session.lookup(account())).toBeUndefined();
      expect((await login([], KEYS.poor)).code).toBe(0);
      expect(session.lookup(account())).toBe(KEYS.poor);
      expect(fileText()).not.toContain('pa_test_');
      expect(onlyJson((await cli(['credits', '--json'])).stdout).credits).toBe(50);
    });

    it('a locked store: login keeps the key in the file and says so in one line; a keyring profile then fails with exit 4', async () => {
      expect((await login(['--profile', 'kept'])).code).toBe(0);
      session.lock();
      const logged = await login();
      expect(logged.code).toBe(0);
      const said = logged.stderr
        .split('\n')
        .filter((line) => line.includes('No system keyring could be used'));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(`so the key is stored in ${configFile()} (readable by you only).`);
      expect(JSON.parse(fileText()).profiles.default).toEqual({ apiKey: KEYS.main, baseUrl: h.server.url });
      expect(onlyJson((await cli(['credits', '--json'])).stdout).credits).toBe(1000);
      // The profile whose key is in the (now locked) keyring: no request without its key.
      const refused = await cli(['credits', '--profile', 'kept']);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain(
        'The key of profile "kept" is kept in the system keyring, which could not be used:',
      );
      // Chosen by --profile, its key is never swapped for the environment's.
      const swapped = await cli(['credits', '--profile', 'kept'], {
        env: { PROFILE_ARTICLES_API_KEY: KEYS.poor },
      });
      expect(swapped.code).toBe(4);
      const status = await cli(['status', '--json', '--profile', 'kept']);
      expect(status.code).toBe(4);
      expect(onlyJson(status.stdout)).toMatchObject({ api_key: null, api_key_in: 'keyring', balance: null });
      // A locked store removes nothing: logout says the entry may remain, and how to remove it.
      const out = await cli(['logout', '--profile', 'kept']);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        `account ${account('kept')} of service profile-articles may still hold it`,
      );
      expect(out.stderr).toContain(
        `secret-tool clear service profile-articles username '${account('kept')}'`,
      );
      expect(JSON.parse(fileText()).profiles.kept).toEqual({ baseUrl: h.server.url });
    });

    it('no bus at all, or a bus address nobody answers on: the key goes in the file, said in one line', async () => {
      for (const env of [
        { DBUS_SESSION_BUS_ADDRESS: undefined },
        { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
      ]) {
        const logged = await login(['--json'], KEYS.main, env);
        expect(logged.code).toBe(0);
        expect(onlyJson(logged.stdout)).toMatchObject({ logged_in: true, api_key_in: 'file' });
        const warnings = logged.stderr.split('\n').filter(Boolean);
        expect(warnings).toHaveLength(1);
        expect(JSON.parse(warnings[0]!).warning).toMatch(
          /^No system keyring could be used \(.+\), so the key is stored in /,
        );
        expect(JSON.parse(fileText()).profiles.default.apiKey).toBe(KEYS.main);
        expect((await cli(['credits', '--json'], { env })).code).toBe(0);
      }
    });

    it('a store that does not answer (its daemon stopped) is given up on, and the key goes in the file', async () => {
      process.kill(session.daemonPid(), 'SIGSTOP');
      const logged = await login();
      process.kill(session.daemonPid(), 'SIGCONT');
      expect(logged.code).toBe(0);
      expect(logged.stderr).toContain('No system keyring could be used');
      expect(JSON.parse(fileText()).profiles.default.apiKey).toBe(KEYS.main);
    });

    it('config set api-key stores where login would; config set base-url moves the entry to the new origin', async () => {
      expect((await cli(['config', 'set', 'base-url', h.server.url])).code).toBe(0);
      const set = await cli(['config', 'set', 'api-key'], { input: KEYS.main });
      expect(set.code).toBe(0);
      expect(session.lookup(account())).toBe(KEYS.main);
      expect(fileText()).not.toContain(KEYS.main);

      const moved = await cli(['config', 'set', 'base-url', other.url]);
      expect(moved.code).toBe(0);
      expect(moved.stderr).toContain(`that stored key will now be sent to ${new URL(other.url).origin}`);
      expect(session.lookup(account())).toBeUndefined();
      expect(session.lookup(account('default', other.url))).toBe(KEYS.main);
      expect(JSON.parse(fileText()).profiles.default).toEqual({ apiKeyIn: 'keyring', baseUrl: other.url });
      const credits = await cli(['credits', '--json']);
      expect(onlyJson(credits.stdout).credits).toBe(1000);

      // The origin names the entry: it is not removed alone.
      const unset = await cli(['config', 'unset', 'base-url']);
      expect(unset.code).toBe(2);
      expect((await cli(['config', 'unset', 'api-key'])).code).toBe(0);
      expect(session.lookup(account('default', other.url))).toBeUndefined();
    });

    it('the key is in no output and no file but the keyring', () => {
      for (const text of transcript) for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
    });
  },
);
