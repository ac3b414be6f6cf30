// generateAndWait when another job is already active for the profile (409, which names no job):
// onConflict 'wait' (the default) sends the same generate again, with the same key, until it is
// answered otherwise; 'throw' and a caller's key keep the ConflictError. Against the real mock
// over HTTP; its ledger says what was charged.
import { ledgerCharges } from '@profile-articles/test-utils/ledger';
import { useMockServer } from '@profile-articles/test-utils/mock-suite';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  ConflictError,
  InvalidArgumentError,
  ProfileArticles,
  TimeoutError,
} from '../src/node.js';
import { TRANSPORTS } from './scripted-client.js';

const QUEUED_MS = 90_000;
const mock = useMockServer({
  accounts: [
    { id: 'shop', apiKeys: ['key-shop-1'], credits: 1_000, pricing: { requests_per_minute: 100_000 } },
    { id: 'neighbour', apiKeys: ['key-neighbour-1'], credits: 1_000 },
    // Its jobs are cancelled after a minute queued, and every job here queues for 90 s:
    // another job that ends without an article, on the mock's clock.
    {
      id: 'other',
      apiKeys: ['key-other-1'],
      credits: 1_000,
      pricing: { queued_timeout_minutes: 1, requests_per_minute: 100_000 },
    },
  ],
  jobs: { queuedMs: QUEUED_MS, runningMs: 10_000 },
});

/** Another account whose job for the profile will succeed. */
const neighbour = () => new ProfileArticles({ apiKey: 'key-neighbour-1', baseUrl: mock.url });
/** Another account whose job for the profile will be cancelled, refunded, without an article. */
const other = () => new ProfileArticles({ apiKey: 'key-other-1', baseUrl: mock.url });
/** Every generate the shop's client sent, with what it was answered. */
const generates = () =>
  mock.service
    .journal()
    .reverse() // oldest first: the journal answers newest first
    .filter((e) => e.accountId === 'shop' && e.method === 'POST' && e.path === '/api/v1/articles');

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  /** The shop's client; `on409(n)` hears each 409 it is answered, counting from 1. */
  function shop(extra: ClientOptions = {}, on409: (count: number) => void = () => {}) {
    let conflicts = 0;
    return new ProfileArticles({
      apiKey: 'key-shop-1',
      baseUrl: mock.url,
      pollIntervalMs: 5,
      ...options,
      ...extra,
      hooks: { onResponse: ({ status }) => status === 409 && on409(++conflicts) },
    });
  }

  it('waits out another job that succeeds: the same key again until the article, at a read’s price', async () => {
    await neighbour().articles.generate('ada-lovelace');
    // Two 409s heard: the other job ends, and the next ask finds the article.
    const client = shop({}, (count) => count === 2 && mock.service.advanceClock(QUEUED_MS + 10_001));
    const article = await client.articles.generateAndWait('ada-lovelace');
    expect(article.title).toBe('Ada Lovelace');
    const sent = generates();
    expect(sent.map((e) => e.status)).toEqual([409, 409, 200]);
    expect(new Set(sent.map((e) => e.idempotencyKey)).size).toBe(1);
    // Each 409 was free; the article cost a read.
    const ledger = await ledgerCharges(mock.url, 'shop');
    expect(ledger.entries.map((e) => [e.kind, e.reason, e.delta])).toEqual([['charge', 'generate-read', -1]]);
    expect(client.spent).toBe(1);
  });

  it('waits out another job that ends without an article: then starts its own and waits for it', async () => {
    await other().articles.generate('grace-hopper');
    const client = shop({ spendLimit: 100 }, (count) => count === 2 && mock.service.advanceClock(60_001));
    const polled: string[] = [];
    const article = await client.articles.generateAndWait('grace-hopper', {
      onPoll: (job) => {
        polled.push(job.status);
        mock.service.advanceClock(QUEUED_MS + 10_001);
      },
    });
    expect(article.title).toBe('Grace Hopper');
    expect(generates().map((e) => e.status)).toEqual([409, 409, 202]);
    expect(polled.at(0)).toBe('queued');
    expect(polled.at(-1)).toBe('succeeded');
    const ledger = await ledgerCharges(mock.url, 'shop');
    expect(ledger.net).toBe(100);
    expect(ledger.entries.filter((e) => e.kind === 'reservation')).toHaveLength(1);
    // The re-sends held the generation's price in turn, never more than once.
    expect(client.spent).toBe(100);
  });

  it("onConflict: 'throw' keeps the ConflictError of the first 409", async () => {
    await other().articles.generate('alan-turing');
    const error = await rejectionOf(
      shop().articles.generateAndWait('alan-turing', { onConflict: 'throw' }),
      ConflictError,
    );
    expect(error.status).toBe(409);
    expect(generates()).toHaveLength(1);
  });

  it("a caller's idempotency key keeps the ConflictError: its 409 may mean the key was used elsewhere", async () => {
    await other().articles.generate('alan-turing');
    const client = shop();
    await rejectionOf(
      client.articles.generateAndWait('alan-turing', { idempotencyKey: 'order-7' }),
      ConflictError,
    );
    // And a key used for another profile is a 409 that waiting would never end.
    await client.articles.generate('ada-lovelace', { idempotencyKey: 'order-8' });
    await rejectionOf(
      client.articles.generateAndWait('grace-hopper', { idempotencyKey: 'order-8' }),
      ConflictError,
    );
    expect(generates()).toHaveLength(3);
  });

  it('stops at waitTimeoutMs while the other job goes on: a TimeoutError, nothing charged', async () => {
    await other().articles.generate('ada-lovelace');
    const client = shop();
    const error = await rejectionOf(
      client.articles.generateAndWait('ada-lovelace', { waitTimeoutMs: 30, intervalMs: 10 }),
      TimeoutError,
    );
    expect(error.message).toMatch(/another job for "ada-lovelace" was still active/);
    expect(error.message).toMatch(/nothing was started or charged/);
    expect(generates().every((e) => e.status === 409)).toBe(true);
    expect((await ledgerCharges(mock.url, 'shop')).net).toBe(0);
    expect(client.spent).toBe(0);
  });

  it('stops when the signal aborts, with its reason', async () => {
    await other().articles.generate('ada-lovelace');
    const controller = new AbortController();
    const reason = new Error('visitor left');
    const client = shop({}, (count) => count === 2 && controller.abort(reason));
    const error = await rejectionOf(
      client.articles.generateAndWait('ada-lovelace', { signal: controller.signal }),
    );
    expect(error).toBe(reason);
    expect(generates().map((e) => e.status)).toEqual([409, 409]);
  });

  it('refuses an onConflict it does not know, before sending', async () => {
    const client = shop();
    await rejectionOf(
      client.articles.generateAndWait('ada-lovelace', { onConflict: 'retry' as 'wait' }),
      InvalidArgumentError,
    );
    expect(generates()).toHaveLength(0);
  });
});
