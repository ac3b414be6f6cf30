// What a newcomer trial found still wrong after the first pass over the CLI (issue 10): messages
// that say a thing twice, `help` of an unknown command, a replayed key told as a new charge, and
// the exact shape of every --json error. In-process: none of it needs a terminal.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ERROR_FIELDS, KEYS, useCliMock } from './helpers.js';

const h = useCliMock();

/** The last line of stderr, which under --json is the one error object. */
const lastJson = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!);

describe('each thing said once', () => {
  it('402 gives the balance once, in the message; the hint says what to do', async () => {
    const result = await h.run(['generate', 'ada-lovelace'], {
      env: { PROFILE_ARTICLES_API_KEY: KEYS.poor },
    });
    expect(result.code).toBe(5);
    const [message, hint, ...rest] = result.stderr.trimEnd().split('\n');
    expect(rest).toEqual([expect.stringMatching(/^Request id: req_\d+$/)]);
    expect(message).toBe(
      'Error: Not enough credits (402): generate costs 100 credits, your balance is 50 credits.',
    );
    expect(hint).toBe('Buy credits with `profile-articles buy 100`, then run the command again.');
  });

  it('409 without a key: the hint tells what to do, not what the message said', async () => {
    await h.run(['generate', 'stuck-someone', '--no-wait']);
    const result = await h.run(['generate', 'stuck-someone']);
    expect(result.code).toBe(1);
    const [message, hint] = result.stderr.trimEnd().split('\n');
    expect(message).toMatch(/^Error: Conflict \(409\)\. Another job is active for this profile/);
    expect(hint).toBe(
      'Wait until the profile’s active job has ended, then try again: a profile runs one job at a time.',
    );
  });

  it('help of an unknown command says so, suggests the nearest, exit 2', async () => {
    const near = await h.run(['help', 'genrate']);
    expect(near.code).toBe(2);
    expect(near.stdout).toBe('');
    expect(near.stderr).toBe(
      "Error: unknown command 'genrate'\n(Did you mean generate?)\nRun `profile-articles --help` for the list of commands.\n",
    );
    const far = await h.run(['help', 'nosuch']);
    expect(far.code).toBe(2);
    expect(far.stderr).toBe(
      "Error: unknown command 'nosuch'\nRun `profile-articles --help` for the list of commands.\n",
    );
    const json = await h.run(['help', 'nosuch', '--json']);
    expect(json.code).toBe(2);
    expect(lastJson(json.stderr).error.message).toBe("unknown command 'nosuch'");
    // A known command's help still works, from `help` and from --help.
    expect((await h.run(['help', 'config'])).stdout).toContain('Usage: profile-articles config');
  });
});

describe('a replayed idempotency key', () => {
  it('is told as possibly the earlier job, never as a new charge', async () => {
    const first = await h.run(['generate', 'ada-lovelace', '--idempotency-key', 'my-key-1']);
    expect(first.code).toBe(0);
    const again = await h.run(['generate', 'ada-lovelace', '--idempotency-key', 'my-key-1']);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toMatch(/started: 100 credits reserved/);
    expect(again.stderr).toMatch(
      /^Job [0-9a-f-]{36}: 100 credits reserved for key my-key-1, once: a key used before answers with its earlier job, at no new charge\.$/m,
    );
    expect((await h.run(['credits', '--json'])).stdout).toMatch(/"credits": 900/);
    // Without a key of yours the job is new: it is told as started.
    const update = await h.run(['update', 'ada-lovelace']);
    expect(update.stderr).toMatch(/^Job [0-9a-f-]{36} started: 100 credits reserved\.$/m);
  });
});

describe('--json errors have one shape', () => {
  it('every path prints the documented fields in the documented order', async () => {
    const runs = [
      await h.run(['read', '--json']), // commander: missing argument
      await h.run(['frobnicate', '--json']), // commander: unknown command
      await h.run(['buy', 'lots', '--json']), // the CLI's own error
      await h.run(['read', 'nobody', '--json']), // an SDK error
      await h.run(['credits', '--json'], { env: { PROFILE_ARTICLES_BASE_URL: undefined } }),
      await h.run(['help', 'nosuch', '--json']),
    ];
    for (const result of runs) {
      expect(result.code).not.toBe(0);
      const parsed = lastJson(result.stderr);
      expect(Object.keys(parsed)).toEqual(['error']);
      expect(Object.keys(parsed.error)).toEqual(ERROR_FIELDS);
    }
  });

  it('a missing argument points to the command’s own help', async () => {
    const human = await h.run(['read']);
    expect(human.code).toBe(2);
    expect(human.stderr).toBe(
      "Error: missing required argument 'profile_id'\nRun `profile-articles read --help` for usage.\n",
    );
    const nested = await h.run(['config', 'get', '--json']);
    expect(nested.code).toBe(2);
    expect(lastJson(nested.stderr).error.hint).toBe('Run `profile-articles config get --help` for usage.');
  });

  it('config get --json prints {name, value, source, profile}', async () => {
    const key = await h.run(['config', 'get', 'api-key', '--json']);
    expect(JSON.parse(key.stdout)).toEqual({
      name: 'api-key',
      value: 'pa_t…89',
      source: 'environment',
      profile: 'default',
    });
    const unset = await h.run(['config', 'get', 'base-url', '--json'], {
      env: { PROFILE_ARTICLES_BASE_URL: undefined },
    });
    expect(JSON.parse(unset.stdout)).toEqual({
      name: 'base-url',
      value: null,
      source: null,
      profile: 'default',
    });
  });
});

describe('exit code 2, as docs/cli.md says', () => {
  it('for a 400 or 422 from the server (the mock cannot be made to answer them here)', async () => {
    // A stand-in service answering every request with the status under test and a {detail} body.
    let status = 400;
    const server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: `refused with ${status}` }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (status of [400, 422]) {
        const result = await h.run(['credits'], { env: { PROFILE_ARTICLES_BASE_URL: url } });
        expect(result.code, String(status)).toBe(2);
        expect(result.stderr).toMatch(
          new RegExp(`^Error: The service refused the request \\(${status}\\)\\.`),
        );
      }
    } finally {
      server.close();
    }
  });

  it('for a settings file that is not valid JSON', async () => {
    writeFileSync((await h.run(['config', 'path'])).stdout.trim(), '{ not json');
    const result = await h.run(['credits'], { env: { PROFILE_ARTICLES_API_KEY: undefined } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: .*not valid JSON/);
  });
});
