// What a newcomer's trial of the packed SDK found (a backend developer used to openai-node):
// each behaviour against the real mock over HTTP, over both of Node's transports.

import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { startMock } from '@profile-articles/test-utils/start-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ConflictError,
  JobFailedError,
  PaymentsNotConfiguredError,
  ProfileArticles,
  type RetryInfo,
  TimeoutError,
} from '../src/node.js';
import { TRANSPORTS } from './scripted-client.js';

let baseUrl: string;
let mock: Awaited<ReturnType<typeof startMock>>;
beforeAll(async () => {
  mock = await startMock('http', {
    accounts: [
      { id: 'acme', apiKeys: ['key-acme-1'], credits: 1_000, pricing: { requests_per_minute: 100_000 } },
    ],
    // Short jobs: a failed one ends soon; stuck-* never ends.
    jobs: { queuedMs: 10, runningMs: 10 },
    payments: 'disabled',
  });
  baseUrl = mock.baseUrl;
});
afterAll(() => mock.close());
beforeEach(() => mock.service.reset());

/** The words of a sentence, for "the same words twice". */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu)
    ?.join(' ') ?? '';

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const client = (extra: object = {}) =>
    new ProfileArticles({ apiKey: 'key-acme-1', baseUrl, pollIntervalMs: 5, ...options, ...extra });

  it('a wait that times out carries the idempotency key of the call that started the job', async () => {
    // stuck-*: the mock's job never ends.
    const own = await rejectionOf(
      client().articles.generateAndWait('stuck-bob', { waitTimeoutMs: 30 }),
      TimeoutError,
    );
    expect(own.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const sent = mock.service.journal().filter((entry) => entry.method === 'POST');
    expect(sent.map((entry) => entry.idempotencyKey)).toEqual([own.idempotencyKey]);
    const given = await rejectionOf(
      client().articles.generateAndWait('stuck-carol', { waitTimeoutMs: 30, idempotencyKey: 'order-7' }),
      TimeoutError,
    );
    expect(given.idempotencyKey).toBe('order-7');
  });

  it('a failed job waited on carries the idempotency key of the call that started it', async () => {
    const own = await rejectionOf(client().articles.generateAndWait('fail-someone'), JobFailedError);
    expect(own.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const given = await rejectionOf(
      client().articles.generateAndWait('fail-other', { idempotencyKey: 'order-8' }),
      JobFailedError,
    );
    expect(given.idempotencyKey).toBe('order-8');
  });

  it('a 409 for a reused key says to change the key, and not to wait for a job', async () => {
    await client().articles.generate('ada-lovelace', { idempotencyKey: 'k-1' });
    const reused = await rejectionOf(
      client().articles.generate('grace-hopper', { idempotencyKey: 'k-1' }),
      ConflictError,
    );
    expect(reused.message).toContain('already used');
    expect(reused.message).not.toMatch(/running job|wait/i);
    expect(reused.message).toMatch(/idempotencyKey/);
    const said = reused.message.split(/(?<=[.!?])\s+/).map(wordsOf);
    expect(new Set(said).size).toBe(said.length);
  });

  it('a 409 for another active job says to wait, and not to change a key the SDK made', async () => {
    await client().articles.generate('stuck-dan');
    const busy = await rejectionOf(
      client().articles.generateAndWait('stuck-dan', { onConflict: 'throw' }),
      ConflictError,
    );
    expect(busy.message).toContain('Another job is active');
    expect(busy.message).not.toContain('new idempotencyKey');
  });

  it('a 503 from checkout says what to do next', async () => {
    const error = await rejectionOf(client().credits.checkout(100), PaymentsNotConfiguredError);
    // More than the server's words: a next step.
    expect(error.message.replace(/^503 /, '')).not.toBe('Payments are not configured.');
    expect(error.message).toMatch(/operator|configure/i);
  });

  it('onRetry reports whole milliseconds', async () => {
    const delays: number[] = [];
    // Every balance answers 500: one retry, with a backoff delay (jittered, so fractional before).
    mock.service.setFaults({ rules: [{ route: 'GET /api/v1/credits', kind: 'fail', probability: 1 }] });
    const hooks = { onRetry: (info: RetryInfo) => delays.push(info.delayMs) };
    await rejectionOf(client({ hooks, maxRetries: 1 }).credits.balance(), Error);
    expect(delays).toHaveLength(1);
    for (const delay of delays) expect(Number.isInteger(delay)).toBe(true);
    expect(Number.isInteger(delays[0])).toBe(true);
  });
});
