// The backend against the mock server over HTTP, as it runs in production: a real port for
// the backend, a real port for the service, fetch in between.
import { EventEmitter, once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { ProfileArticles } from '@profile-articles/sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AppOptions, createApp } from './app.js';

/** The profiles these tests' backends serve: the app's own list, as a real site's would be. */
const PROFILES = new Set(['ada-lovelace', 'grace-hopper', 'alan-turing', 'fail-someone', 'notfound-someone']);
const canServe = (profileId: string) => PROFILES.has(profileId);
const API_KEY = 'backend-secret-key';
let mock: MockServer;
let backend: Server;
let origin: string;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    config: {
      accounts: [{ id: 'shop', apiKeys: [API_KEY], credits: 250 }],
      jobs: { queuedMs: 50, runningMs: 50 },
    },
  });
  const client = new ProfileArticles({ apiKey: API_KEY, baseUrl: mock.url, pollIntervalMs: 20 });
  backend = createApp(client, { canServe }).listen(0, '127.0.0.1');
  await new Promise((resolve) => backend.once('listening', resolve));
  origin = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
});
beforeEach(() => mock.service.reset());
afterAll(async () => {
  await new Promise((resolve) => backend.close(resolve));
  await mock.close();
});

async function get(profileId: string, from = origin) {
  const response = await fetch(`${from}/profiles/${profileId}/article`);
  const text = await response.text();
  expect(text).not.toContain(API_KEY); // the key never reaches the frontend
  return { status: response.status, body: JSON.parse(text), headers: response.headers };
}

it('generates and waits on the first request (100 credits), then reads (1 credit)', async () => {
  const first = await get('ada-lovelace');
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({
    generated: true,
    article: { title: 'Ada Lovelace', current_version: 1 },
  });
  expect(mock.service.balance('shop')).toBe(150);

  const second = await get('ada-lovelace');
  expect(second.body).toMatchObject({ generated: false, article: { title: 'Ada Lovelace' } });
  expect(mock.service.balance('shop')).toBe(149);
});

it('answers 404 for a profile the service does not know, free', async () => {
  expect(await get('notfound-someone')).toMatchObject({ status: 404, body: { error: 'No such profile' } });
  expect(mock.service.balance('shop')).toBe(250);
});

it('answers 502 when generation fails, and the credits come back', async () => {
  const { status, body } = await get('fail-someone');
  expect(status).toBe(502);
  expect(body.error).toMatch(/could not be generated/);
  expect(mock.service.balance('shop')).toBe(250);
});

it('hides an empty balance from the visitor behind a 503', async () => {
  await get('ada-lovelace');
  await get('grace-hopper'); // 50 credits left
  expect(await get('alan-turing')).toMatchObject({ status: 503, body: { error: 'Temporarily unavailable' } });
});

/** What the mock's ledger (`GET /_mock/ledger`) holds for every account: reservations and charges. */
async function ledger(of: MockServer) {
  const { entries } = (await (await fetch(`${of.url}/_mock/ledger`)).json()) as {
    entries: Array<{ kind: string; reason: string }>;
  };
  return entries;
}

describe('anonymous visitors cannot drain the account', () => {
  // A rich account and no rate limit: only the backend's own rules stand between visitors and spend.
  let rich: MockServer;
  const servers: Server[] = [];
  beforeAll(async () => {
    rich = await startMockServer({
      port: 0,
      config: {
        accounts: [
          { id: 'shop', apiKeys: [API_KEY], credits: 100_000, pricing: { requests_per_minute: 100_000 } },
        ],
        jobs: { queuedMs: 10, runningMs: 10 },
      },
    });
  });
  beforeEach(() => rich.service.reset());
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await rich.close();
  });

  async function richBackend(options: AppOptions) {
    const client = new ProfileArticles({ apiKey: API_KEY, baseUrl: rich.url, pollIntervalMs: 10 });
    const server = createApp(client, options).listen(0, '127.0.0.1');
    servers.push(server);
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('a profile the app does not serve is 404 without any call to the service', async () => {
    const shop = await richBackend({ canServe });
    const visits = await Promise.all(Array.from({ length: 10 }, (_, i) => get(`visitor-${i}`, shop)));
    for (const visit of visits)
      expect(visit).toMatchObject({ status: 404, body: { error: 'No such profile' } });
    expect(await ledger(rich)).toEqual([]); // nothing reserved, nothing charged, not even a read
    expect(rich.service.balance('shop')).toBe(100_000);
  });

  it('many new profiles at once start no more generations than the cap, the rest are told to come back', async () => {
    const shop = await richBackend({ canServe: () => true, generationCap: { max: 2, windowMs: 3_600_000 } });
    const visits = await Promise.all(Array.from({ length: 10 }, (_, i) => get(`visitor-${i}`, shop)));
    const statuses = visits.map((visit) => visit.status).sort();
    expect(statuses).toEqual([200, 200, ...Array(8).fill(429)]);
    for (const refused of visits.filter((visit) => visit.status === 429)) {
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const entries = await ledger(rich);
    expect(entries.filter((e) => e.kind === 'reservation' && e.reason === 'generate')).toHaveLength(2);
    expect(entries.filter((e) => e.kind === 'charge' && e.reason === 'job-succeeded')).toHaveLength(2);
    expect(rich.service.balance('shop')).toBe(100_000 - 200);
  });

  it('visitors who join a generation under way do not use up the cap', async () => {
    const shop = await richBackend({ canServe, generationCap: { max: 1, windowMs: 3_600_000 } });
    const visits = await Promise.all(Array.from({ length: 4 }, () => get('ada-lovelace', shop)));
    for (const visit of visits)
      expect(visit).toMatchObject({ status: 200, body: { article: { title: 'Ada Lovelace' } } });
    // A second new profile is past the cap of one; the first is read, as before.
    expect(await get('grace-hopper', shop)).toMatchObject({ status: 429 });
    expect(await get('ada-lovelace', shop)).toMatchObject({ status: 200, body: { generated: false } });
  });
});

describe('while a generation runs', () => {
  // Jobs here end only when the test moves the mock's clock, so that requests surely overlap.
  let slow: MockServer;
  beforeAll(async () => {
    slow = await startMockServer({
      port: 0,
      config: {
        accounts: [
          { id: 'shop', apiKeys: [API_KEY], credits: 1000, pricing: { requests_per_minute: 100_000 } },
        ],
        jobs: { queuedMs: 60_000, runningMs: 60_000 },
      },
    });
  });
  afterAll(() => slow.close());

  /** Every answer the backends' clients heard, in order; `heard` fires on each. */
  let log: Array<{ backend: string; method: string; path: string; status: number }> = [];
  const heard = new EventEmitter();
  const backends: Server[] = [];
  beforeEach(() => {
    slow.service.reset();
    log = [];
  });
  afterEach(async () => {
    await Promise.all(
      backends.splice(0).map((server) => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      }),
    );
  });

  /** A backend of its own: its own client and memory, as a second instance or a restart would have. */
  async function backend(name: string): Promise<string> {
    const client = new ProfileArticles({
      apiKey: API_KEY,
      baseUrl: slow.url,
      pollIntervalMs: 20,
      hooks: {
        onResponse: ({ method, url, status }) => {
          log.push({ backend: name, method, path: new URL(url).pathname, status });
          heard.emit('answer');
        },
      },
    });
    // Its poll interval is also how often a generation answered 409 asks again.
    const server = createApp(client, { canServe }).listen(0, '127.0.0.1');
    backends.push(server);
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /**
   * Resolves once what the backends heard satisfies `done`, or once one of `visits` has been
   * answered already (a visitor turned away early has nothing left to wait for): events, never a clock.
   */
  async function until(done: () => boolean, visits: Array<Promise<unknown>> = []) {
    let answered = false;
    for (const visit of visits)
      visit.finally(() => {
        answered = true;
        heard.emit('answer');
      });
    while (!done() && !answered) await once(heard, 'answer');
  }
  const reads404 = () =>
    log.filter((a) => a.method === 'GET' && a.path.startsWith('/api/v1/articles/') && a.status === 404);
  const pollsSince = (index: number) =>
    log.slice(index).filter((a) => a.path.startsWith('/api/v1/jobs/')).length;
  const lastRead = () => log.lastIndexOf(reads404().at(-1)!);

  /**
   * The mock's ledger: how many generations started and were paid for, and how many generates
   * were answered with the existing article (a read's price: a backend that waited out another's job).
   */
  async function generations() {
    const { entries } = (await (await fetch(`${slow.url}/_mock/ledger`)).json()) as {
      entries: Array<{ kind: string; reason: string }>;
    };
    return {
      started: entries.filter((e) => e.kind === 'reservation' && e.reason === 'generate').length,
      charged: entries.filter((e) => e.kind === 'charge' && e.reason === 'job-succeeded').length,
      reads: entries.filter((e) => e.kind === 'charge' && e.reason === 'generate-read').length,
    };
  }
  const finishJobs = () => slow.service.advanceClock(120_001);

  async function expectArticles(visits: Array<Promise<{ status: number; body: any }>>) {
    for (const { status, body } of await Promise.all(visits)) {
      expect({ status, title: body.article?.title }).toEqual({ status: 200, title: 'Ada Lovelace' });
    }
  }

  it('five visitors at once all get the article, generated once', async () => {
    const shop = await backend('shop');
    const visits = Array.from({ length: 5 }, () => get('ada-lovelace', shop));
    // Every visitor found no article yet, and the job was polled twice since the last of them did.
    await until(() => reads404().length === 5 && pollsSince(lastRead()) >= 2, visits);
    finishJobs();
    await expectArticles(visits);
    expect(await generations()).toEqual({ started: 1, charged: 1, reads: 0 });
    // And the next visitor reads it.
    expect(await get('ada-lovelace', shop)).toMatchObject({ status: 200, body: { generated: false } });
    expect(await generations()).toEqual({ started: 1, charged: 1, reads: 0 });
  });

  it('visitors of two backends (no memory shared) all get the article, generated once', async () => {
    const [one, two] = [await backend('one'), await backend('two')];
    const visits = [get('ada-lovelace', one), get('ada-lovelace', two), get('ada-lovelace', two)];
    // The backend that lost the race heard 409 (another job is active), and its generateAndWait asks again.
    await until(() => reads404().length === 3 && log.filter((a) => a.status === 409).length >= 2, visits);
    finishJobs();
    await expectArticles(visits);
    // One generation; the backend that waited it out paid a read for its article (its two visitors shared it).
    expect(await generations()).toEqual({ started: 1, charged: 1, reads: 1 });
  });

  it('a visitor who leaves is picked up by the next request', async () => {
    const shop = await backend('shop');
    const leaving = new AbortController();
    const left = fetch(`${shop}/profiles/ada-lovelace/article`, { signal: leaving.signal }).catch(
      () => 'left',
    );
    await until(() => pollsSince(0) >= 1); // the job is under way
    leaving.abort();
    expect(await left).toBe('left');
    const next = get('ada-lovelace', shop);
    await until(() => reads404().length === 2 && pollsSince(lastRead()) >= 2, [next]);
    finishJobs();
    await expectArticles([next]);
    expect(await generations()).toEqual({ started: 1, charged: 1, reads: 0 });
  });
});
