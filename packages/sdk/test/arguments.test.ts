// Argument mistakes are refused before anything is sent, as a rejected promise (never a
// synchronous throw), with InvalidArgumentError; construction refuses what can never work.
import { inspect } from 'node:util';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { JOB, reply } from '@profile-articles/test-utils/scripted-server';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProfileArticles, ProfileArticlesError } from '../src/index.js';
import { useScriptedServers } from './scripted-client.js';

const { setup } = useScriptedServers();

/** Calls `call` and returns what it rejected with; a synchronous throw fails the test. */
async function refusal(call: () => Promise<unknown>) {
  let promise: Promise<unknown> | undefined;
  expect(() => {
    promise = call();
  }).not.toThrow();
  const error = await rejectionOf(promise as Promise<unknown>, InvalidArgumentError);
  expect(error).toBeInstanceOf(ProfileArticlesError);
  return error;
}

const LONE = '\ud800';
const EMOJI = '\u{1F600}';

describe('argument mistakes are rejected promises, and nothing is sent', () => {
  it.each([
    ['a lone surrogate', LONE],
    ['a lone surrogate inside', `ada${LONE}x`],
    ['an empty id', ''],
    ['"."', '.'],
    ['".."', '..'],
    ['201 characters', 'x'.repeat(201)],
    ['201 code points', EMOJI.repeat(201)],
    ['a number', 42 as unknown as string],
  ])('profile id: %s', async (_name, profileId) => {
    const { server, client } = await setup([reply(202, JOB)]);
    const read = await refusal(() => client.articles.read(profileId));
    // The same mistake reads the same in every method: the field and its value, never the
    // request body the SDK builds around it (generate sends the id in a body, read in the path).
    expect(read.message).toMatch(/^profile_id /);
    expect((await refusal(() => client.articles.generate(profileId))).message).toBe(read.message);
    expect((await refusal(() => client.articles.update(profileId))).message).toBe(read.message);
    await refusal(() => client.articles.generateAndWait(profileId));
    await refusal(() => client.articles.updateAndWait(profileId));
    expect(server.received).toHaveLength(0);
  });

  it('accepts 200 code points, even where that is 400 UTF-16 units', async () => {
    const { server, client } = await setup([reply(202, JOB)]);
    await client.articles.generate(EMOJI.repeat(200));
    expect(JSON.parse(server.received[0]!.body).profile_id).toBe(EMOJI.repeat(200));
  });

  it.each([
    ['non-Latin-1', 'ключ-1'],
    ['an emoji', `key-${EMOJI}`],
    ['a lone surrogate', `key-${LONE}`],
    ['a line break', 'key\r\nx-evil: 1'],
    ['leading space', ' key'],
    ['empty', ''],
    ['201 characters', 'k'.repeat(201)],
  ])('idempotency key: %s', async (_name, idempotencyKey) => {
    const { server, client } = await setup([reply(202, JOB)]);
    const error = await refusal(() => client.articles.generate('ada', { idempotencyKey }));
    expect(error.message).toMatch(/idempotencyKey/);
    await refusal(() => client.articles.update('ada', { idempotencyKey }));
    await refusal(() => client.articles.generateAndWait('ada', { idempotencyKey }));
    expect(server.received).toHaveLength(0);
  });

  it('sends a 200-character key as given', async () => {
    const { server, client } = await setup([reply(202, JOB)]);
    await client.articles.update('ada', { idempotencyKey: 'k'.repeat(200) });
    expect(server.received[0]!.headers['idempotency-key']).toBe('k'.repeat(200));
  });

  it('job ids, credits and per-call options', async () => {
    const { server, client } = await setup([reply(200, JOB)]);
    await refusal(() => client.jobs.get(LONE));
    await refusal(() => client.jobs.get(''));
    await refusal(() => client.jobs.waitFor(LONE));
    await refusal(() => client.credits.checkout(1.5));
    await refusal(() => client.credits.checkout('100' as unknown as number));
    await refusal(() => client.credits.balance({ timeoutMs: -1 }));
    await refusal(() => client.jobs.get(JOB.job_id, { maxRetries: Number.NaN }));
    expect(server.received).toHaveLength(0);
  });
});

/** What constructing a client with `apiKey` threw. */
function constructionError(apiKey: string): unknown {
  try {
    new ProfileArticles({ apiKey, baseUrl: 'http://127.0.0.1:1' });
  } catch (caught) {
    return caught;
  }
  return undefined;
}

describe('construction refuses what can never work', () => {
  it.each([
    ['a line break', 'sk-live-SECRET\n'],
    ['a space', 'sk-live SECRET'],
    ['non-ASCII', 'sk-live-SECRÉT'],
    ['a NUL', 'sk-live-SECRET\0'],
  ])('an API key with %s, without echoing it', (_name, apiKey) => {
    const error = constructionError(apiKey);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(inspect(error, { showHidden: true, depth: 5 }) + JSON.stringify(error)).not.toMatch(/SECR/);
  });

  it.each([
    ['one character', 'Q'],
    ['seven characters', 'SECRET7'],
  ])(
    'an API key of %s: too short to be told apart from ordinary words, without echoing it',
    (_name, apiKey) => {
      const error = constructionError(apiKey);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(/at least 8 characters/);
      // Without the stack's frames: their file paths are the machine's and the test runner's
      // (vitest 5's run.zBhXlcZQ.js holds a Q), and say nothing of the key.
      const shown = inspect(error, { showHidden: true, depth: 5 }).replace(/^\s+at .*$/gm, '');
      expect(shown + JSON.stringify(error)).not.toContain(apiKey);
      expect(() => new ProfileArticles({ apiKey: 'SECRET78', baseUrl: 'http://127.0.0.1:1' })).not.toThrow();
    },
  );

  it('a baseUrl with credentials, without echoing them', () => {
    let error: unknown;
    try {
      new ProfileArticles({ apiKey: 'test-key', baseUrl: 'https://user:hunter2@api.example.com' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(String((error as Error).message)).not.toContain('hunter2');
  });
});
