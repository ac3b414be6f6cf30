// A stored key goes only to the origin it was stored with (PRODUCT.md, fourth release, Fixes):
// an origin from a flag or the environment that is not the profile's own, or a profile that
// stores no origin, gets no request at all, and the refusal says what would send a key there.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEYS, onlyJson, transcript, useCliMock } from './helpers.js';

const h = useCliMock();
/** Nothing in the environment but the config folder (and what a test adds). */
const bare = (args: string[], options: Parameters<typeof h.run>[1] = {}) =>
  h.run(args, {
    ...options,
    env: { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined, ...options.env },
  });

/** Whatever listens on another port of this machine: it records every request it is sent. */
let elsewhere: Server;
let elsewhereUrl: string;
const received: IncomingMessage['headers'][] = [];
beforeAll(async () => {
  elsewhere = createServer((req, res) => {
    received.push(req.headers);
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"not the API"}');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));
beforeEach(() => {
  received.length = 0;
});

async function storeProd(): Promise<void> {
  const login = await bare(['login', '--profile', 'prod', '--base-url', h.server.url], { input: KEYS.main });
  expect(login.code).toBe(0);
}

describe('a stored key goes only to its own origin', () => {
  it('PROFILE_ARTICLES_PROFILE=prod with PROFILE_ARTICLES_BASE_URL elsewhere sends nothing (exit 2)', async () => {
    await storeProd();
    const run = await bare(['credits'], {
      env: { PROFILE_ARTICLES_PROFILE: 'prod', PROFILE_ARTICLES_BASE_URL: elsewhereUrl },
    });
    expect(run.code).toBe(2);
    expect(received).toEqual([]);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `Error: The key of profile "prod" is stored for ${h.server.url}: it is not sent to ${elsewhereUrl} (from PROFILE_ARTICLES_BASE_URL).`,
    );
    expect(run.stderr).toContain('pass --api-key or set PROFILE_ARTICLES_API_KEY');
    // Its own origin still works.
    const home = await bare(['credits', '--json'], { env: { PROFILE_ARTICLES_PROFILE: 'prod' } });
    expect(onlyJson(home.stdout).credits).toBe(1000);
  });

  it('--base-url elsewhere with the default profile sends nothing, and names the profile that holds that origin', async () => {
    expect((await bare(['login', '--base-url', h.server.url], { input: KEYS.main })).code).toBe(0);
    const alone = await bare(['credits', '--base-url', elsewhereUrl]);
    expect(alone.code).toBe(2);
    expect(received).toEqual([]);
    expect(alone.stderr).toMatch(
      /The key of profile "default" is stored for .*: it is not sent to .* \(from --base-url\)\./,
    );
    expect(alone.stderr).not.toMatch(/holds that origin/);
    // A profile stored for that origin is named as the way to use it.
    await bare(['config', 'set', 'base-url', elsewhereUrl, '--profile', 'other']);
    await bare(['config', 'set', 'api-key', KEYS.poor, '--profile', 'other']);
    const named = await bare(['status'], { env: { PROFILE_ARTICLES_BASE_URL: elsewhereUrl } });
    expect(named.code).toBe(2);
    expect(received).toEqual([]);
    expect(named.stdout).toMatch(/^origin +http:\/\/127\.0\.0\.1:\d+ \(from environment\)$/m);
    expect(named.stderr).toContain('Profile "other" holds that origin: add --profile other.');
  });

  it('a stored key with no stored origin is not sent to an origin from the environment or a flag', async () => {
    expect((await bare(['config', 'set', 'api-key', KEYS.main])).code).toBe(0);
    for (const args of [['credits', '--base-url', elsewhereUrl], ['credits']]) {
      const run = await bare(args, { env: { PROFILE_ARTICLES_BASE_URL: elsewhereUrl } });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^Error: Profile "default" stores a key but no origin: it is not sent to /);
    }
    expect(received).toEqual([]);
  });

  it('with --profile chosen over PROFILE_ARTICLES_API_KEY, says so and that dropping --profile sends the environment key', async () => {
    await storeProd();
    const run = await bare(['credits', '--profile', 'prod', '--base-url', elsewhereUrl], {
      env: { PROFILE_ARTICLES_API_KEY: KEYS.poor },
    });
    expect(run.code).toBe(2);
    expect(received).toEqual([]);
    expect(run.stderr).toContain(
      'PROFILE_ARTICLES_API_KEY is set too, but --profile chose the stored key over it: drop --profile to send the environment’s key there.',
    );
    // One message, not the usual note on which key won as well.
    expect(run.stderr).not.toMatch(/is set too and is not used/);
    // And so it does.
    const dropped = await bare(['credits', '--base-url', h.server.url, '--json'], {
      env: { PROFILE_ARTICLES_API_KEY: KEYS.poor },
    });
    expect(onlyJson(dropped.stdout).credits).toBe(50);
  });

  it('the same origin spelled otherwise is the same origin; --api-key or PROFILE_ARTICLES_API_KEY sends another key there', async () => {
    await storeProd();
    const spelled = h.server.url.replace('http://', 'HTTP://').replace(/\/?$/, '/api/v1/');
    const same = await bare(['credits', '--json'], {
      env: { PROFILE_ARTICLES_PROFILE: 'prod', PROFILE_ARTICLES_BASE_URL: spelled },
    });
    expect(same.code).toBe(0);
    const withKey = await bare(['credits', '--api-key', KEYS.poor, '--base-url', elsewhereUrl], {
      env: { PROFILE_ARTICLES_PROFILE: 'prod' },
    });
    expect(withKey.code).toBe(1); // the listener's 500: the key given was sent, as asked
    expect(received.map((headers) => headers.authorization)).toContain(`Bearer ${KEYS.poor}`);
  });

  it('login that replaces a profile’s key for another origin says so', async () => {
    await storeProd();
    const elsewhere = h.server.url.replace('127.0.0.1', 'localhost');
    const again = await bare(['login', '--profile', 'prod', '--base-url', elsewhere], { input: KEYS.poor });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(
      `Profile "prod" was stored for ${h.server.url}: its key and origin are replaced (login --profile NAME stores another profile).`,
    );
    // The same origin again: nothing to say.
    const same = await bare(['login', '--profile', 'prod'], { input: KEYS.main });
    expect(same.stderr).not.toContain('replaced');
  });

  it('the mock’s next steps work under this rule and leave the default profile alone', async () => {
    // The default profile is a real account elsewhere; the mock is h.server.
    await bare(['config', 'set', 'base-url', 'https://api.example.com']);
    await bare(['config', 'set', 'api-key', KEYS.limited]);
    const before = onlyJson((await bare(['config', 'list', '--json'])).stdout);
    // As `profile-articles mock` prints them (person.test.ts checks the text).
    const login = await bare(['login', '--profile', 'mock', '--base-url', h.server.url], {
      input: KEYS.main,
    });
    expect(login.code).toBe(0);
    const credits = await bare(['credits', '--profile', 'mock', '--json']);
    expect(onlyJson(credits.stdout).credits).toBe(1000);
    const status = await bare(['status', '--profile', 'mock']);
    expect(status.code).toBe(0);
    const after = onlyJson((await bare(['config', 'list', '--json'])).stdout);
    expect(after.profiles.find((p: { name: string }) => p.name === 'default')).toEqual(before.profiles[0]);
    // The other way it prints: both in the environment, nothing stored used.
    const exported = await bare(['credits', '--json'], {
      env: { PROFILE_ARTICLES_BASE_URL: h.server.url, PROFILE_ARTICLES_API_KEY: KEYS.main },
    });
    expect(onlyJson(exported.stdout).credits).toBe(1000);
  });
});

afterAll(() => {
  const all = transcript.join('\n');
  for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
});
