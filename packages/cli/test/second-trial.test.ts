// What a second newcomer trial found: hints that send a person to a fix that cannot work (login
// when the refused key comes from the environment), placeholders where the profile just typed
// is known, and argument mistakes without a hint. In-process: none of it needs a terminal.
import { describe, expect, it } from 'vitest';
import { useCliMock } from './helpers.js';

const h = useCliMock();
const lines = (stderr: string) => stderr.trimEnd().split('\n');

describe('hints that fit where the problem is', () => {
  it('a refused key from PROFILE_ARTICLES_API_KEY: the hint names the variable, not login', async () => {
    const result = await h.run(['credits'], {
      env: { PROFILE_ARTICLES_API_KEY: 'pa_test_WRONGKEY_0123456789' },
    });
    expect(result.code).toBe(4);
    expect(lines(result.stderr)[1]).toBe(
      'The key comes from PROFILE_ARTICLES_API_KEY: correct it, or unset it to use the key `profile-articles login` stores.',
    );
    expect(result.stderr).not.toContain('WRONGKEY');
  });

  it('a refused key given with --api-key: the hint names the flag', async () => {
    const result = await h.run(['credits', '--api-key', 'pa_test_WRONGKEY_0123456789'], {
      env: { PROFILE_ARTICLES_API_KEY: undefined },
    });
    expect(result.code).toBe(4);
    expect(lines(result.stderr)[1]).toBe(
      'The key comes from --api-key: check it, or leave it out to use the stored one.',
    );
  });

  it('404 on read and update: the hint names the profile just typed', async () => {
    const read = await h.run(['read', "o'brien"]);
    expect(read.code).toBe(1);
    expect(lines(read.stderr)[1]).toBe(
      "A read never generates: use `profile-articles generate 'o'\\''brien'`.",
    );
    const update = await h.run(['update', 'nobody-yet']);
    expect(lines(update.stderr)[1]).toBe(
      'There is no article to update yet: `profile-articles generate nobody-yet` makes one.',
    );
  });

  it("an argument the SDK refuses: exit 2, the field and value as typed, and the command's help", async () => {
    const result = await h.run(['generate', '']);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([
      'Error: profile_id must be at least 1 character, got ""',
      'Run `profile-articles generate --help` for usage.',
    ]);
    const job = await h.run(['job', 'nope']);
    expect(job.code).toBe(2);
    expect(lines(job.stderr)[1]).toBe('Run `profile-articles job --help` for usage.');
  });

  it('config get and unset of a setting that is not stored: say so, and how to set it', async () => {
    const env = { PROFILE_ARTICLES_API_KEY: undefined, PROFILE_ARTICLES_BASE_URL: undefined };
    const get = await h.run(['config', 'get', 'api-key'], { env });
    expect(get.code).toBe(1);
    expect(lines(get.stderr)).toEqual([
      'Error: api-key is not set.',
      'Run `profile-articles login`, or set PROFILE_ARTICLES_API_KEY.',
    ]);
    const unset = await h.run(['config', 'unset', 'api-key'], { env });
    expect(unset.code).toBe(0);
    expect(unset.stdout).toBe('api-key was not stored: nothing to remove.\n');
    const logout = await h.run(['logout'], { env });
    expect(logout.stdout).toBe('No API key was stored.\n');
    expect(logout.stderr).toBe('');
  });
});
