// spendLimit and client.spent against the real mock over HTTP, whose ledger (GET /_mock/ledger)
// says what was really charged: the client's count is checked against it, never against itself.
import { startDriftingMock } from '@profile-articles/test-utils/drifting-mock';
import { ledgerCharges } from '@profile-articles/test-utils/ledger';
import { advertise } from '@profile-articles/test-utils/lying-mock';
import { useMockServer } from '@profile-articles/test-utils/mock-suite';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  ConflictError,
  InsufficientCreditsError,
  InvalidArgumentError,
  isJob,
  JobFailedError,
  NotFoundError,
  ProfileArticles,
  ProfileArticlesError,
  ServerError,
  SpendLimitError,
} from '../src/node.js';
import { TRANSPORTS } from './scripted-client.js';

const mock = useMockServer({
  accounts: [
    { id: 'rich', apiKeys: ['key-rich-1'], credits: 100_000, pricing: { requests_per_minute: 100_000 } },
    { id: 'poor', apiKeys: ['key-poor-1'], credits: 50 },
    {
      id: 'cheap',
      apiKeys: ['key-cheap-1'],
      credits: 10_000,
      pricing: { read_credits: 2, generation_credits: 40, requests_per_minute: 100_000 },
    },
  ],
  // Jobs end when a test moves the clock: a started job stays active as long as a test needs.
  jobs: { queuedMs: 60_000, runningMs: 60_000 },
});

const finishJobs = () => mock.service.advanceClock(120_001);
/** Requests the mock heard for `path` (below /api/v1). */
const heard = (method: string, path: string) =>
  mock.service.journal().filter((entry) => entry.method === method && entry.path.startsWith(`/api/v1${path}`))
    .length;

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const client = (extra: ClientOptions = {}, key = 'key-rich-1') =>
    new ProfileArticles({
      apiKey: key,
      baseUrl: mock.url,
      pollIntervalMs: 5,
      ...options,
      ...extra,
    });

  it('a runaway loop of concurrent generates stops at the limit, before sending, and the ledger never passes it', async () => {
    const sdk = client({ spendLimit: 1_000 });
    // Thirty at once, as a bug in a request handler would: each one holds 100 until answered.
    const calls = Array.from({ length: 30 }, (_, i) => sdk.articles.generate(`runaway-${i}`));
    const results = await Promise.allSettled(calls);
    const started = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) =>
      r.status === 'rejected' && r.reason instanceof SpendLimitError ? [r.reason] : [],
    );
    expect(started).toHaveLength(10);
    expect(refused).toHaveLength(20);
    expect(heard('POST', '/articles')).toBe(10); // the refused ones never left the client
    // The first refusal saw all ten under way; the ledger shows what they took.
    expect(refused[0]).toMatchObject({ limit: 1_000, spent: 0, inFlight: 1_000, price: 100 });
    const ledger = await ledgerCharges(mock.url, 'rich');
    expect(ledger.peak).toBeLessThanOrEqual(1_000);
    expect(ledger.net).toBe(1_000);
    expect(sdk.spent).toBe(1_000);

    // A loop that goes on stops at once, and so does a read: the limit is reached.
    for (let i = 0; i < 5; i++) await rejectionOf(sdk.articles.generate(`again-${i}`), SpendLimitError);
    const read = await rejectionOf(sdk.articles.read('runaway-0'), SpendLimitError);
    expect(read).toMatchObject({ spent: 1_000, inFlight: 0, price: 1 });
    expect(heard('POST', '/articles')).toBe(10);
    expect(heard('GET', '/articles/')).toBe(0);
  });

  it('a runaway loop of generateAndWait: what the jobs took is spent, the rest refused', async () => {
    const sdk = client({ spendLimit: 450 });
    // Each wait, on seeing its job started, moves the mock's clock past every job's end.
    const waits = Array.from({ length: 8 }, (_, i) =>
      sdk.articles.generateAndWait(`waited-${i}`, { onPoll: () => finishJobs() }),
    );
    const results = await Promise.allSettled(waits);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    expect(
      results.filter((r) => r.status === 'rejected' && r.reason instanceof SpendLimitError),
    ).toHaveLength(4);
    expect(sdk.spent).toBe(400);
    const ledger = await ledgerCharges(mock.url, 'rich');
    expect(ledger).toMatchObject({ net: 400 });
    expect(ledger.peak).toBeLessThanOrEqual(450);
    // 50 left: reads fit, a generation does not.
    const { credits_charged } = await sdk.articles.read('waited-0');
    expect(credits_charged).toBe(1);
    expect(sdk.spent).toBe(401);
    await rejectionOf(sdk.articles.update('waited-0'), SpendLimitError);
  });

  it('SpendLimitError says what it refused, and is a ProfileArticlesError', async () => {
    const sdk = client({ spendLimit: 150 });
    await sdk.articles.generate('ada-lovelace');
    const error = await rejectionOf(sdk.articles.generate('grace-hopper'), SpendLimitError);
    expect(error).toBeInstanceOf(ProfileArticlesError);
    expect(error.name).toBe('SpendLimitError');
    expect({ limit: error.limit, spent: error.spent, inFlight: error.inFlight, price: error.price }).toEqual({
      limit: 150,
      spent: 100,
      inFlight: 0,
      price: 100,
    });
    expect(error.message).toBe(
      'spendLimit 150 reached: this call may cost 100, with 100 spent and 0 under way; nothing was sent',
    );
    expect(error.attempts).toBeUndefined();
  });

  it('prices a call at the interface’s defaults when the account’s are lower: a discounted account is budgeted at them', async () => {
    // The account's terms: a generation costs 40, a read 2. The client holds 100 a generation,
    // before a balance and after it: a balance's price is what the server says, not what it charges.
    const sdk = client({ spendLimit: 100 }, 'key-cheap-1');
    const first = await sdk.articles.generate('ada-lovelace');
    expect(isJob(first) && first.credits_charged).toBe(40);
    expect(sdk.spent).toBe(40);
    const refused = await rejectionOf(sdk.articles.generate('grace-hopper'), SpendLimitError);
    expect(refused.price).toBe(100);
    expect((await sdk.credits.balance()).pricing.generation_credits).toBe(40);
    expect((await rejectionOf(sdk.articles.generate('grace-hopper'), SpendLimitError)).price).toBe(100);
    // A read above the default (2, not 1) is held at the balance's price.
    finishJobs();
    await sdk.articles.read('ada-lovelace');
    expect(sdk.spent).toBe(42);
    expect((await ledgerCharges(mock.url, 'cheap')).net).toBe(42);
  });

  it('a read is charged when the article exists; a 404 and a 402 are free and give their hold back', async () => {
    const sdk = client({ spendLimit: 101 });
    await rejectionOf(sdk.articles.read('nobody-yet'), NotFoundError);
    expect(sdk.spent).toBe(0);
    await sdk.articles.generate('ada-lovelace');
    finishJobs();
    await sdk.articles.read('ada-lovelace');
    expect(sdk.spent).toBe(101);
    const poor = client({ spendLimit: 1_000 }, 'key-poor-1');
    await rejectionOf(poor.articles.generate('grace-hopper'), InsufficientCreditsError);
    expect(poor.spent).toBe(0);
    // Nothing is left held: the whole limit is there for the next call.
    await rejectionOf(poor.articles.generate('grace-hopper'), InsufficientCreditsError);
    expect((await ledgerCharges(mock.url, 'rich')).net).toBe(101);
    expect((await ledgerCharges(mock.url, 'poor')).net).toBe(0);
  });

  it('generate of an existing article costs a read; update a generation', async () => {
    const sdk = client();
    await sdk.articles.generateAndWait('ada-lovelace', { waitTimeoutMs: 60_000, onPoll: () => finishJobs() });
    expect(sdk.spent).toBe(100);
    const again = await sdk.articles.generate('ada-lovelace');
    expect(isJob(again)).toBe(false);
    expect(sdk.spent).toBe(101);
    await sdk.articles.update('ada-lovelace');
    expect(sdk.spent).toBe(201);
    expect((await ledgerCharges(mock.url, 'rich')).net).toBe(201);
  });

  it('gives credit back when a waited job fails, and the limit can be spent again', async () => {
    const sdk = client({ spendLimit: 100 });
    const failing = sdk.articles.generateAndWait('fail-someone', { onPoll: () => finishJobs() });
    await rejectionOf(failing, JobFailedError);
    expect(sdk.spent).toBe(0);
    expect((await ledgerCharges(mock.url, 'rich')).net).toBe(0);
    // Refunded: a generation fits again.
    await sdk.articles.generate('ada-lovelace');
    expect(sdk.spent).toBe(100);
  });

  it('a refund seen by jobs.get or jobs.waitFor counts too, once', async () => {
    const sdk = client({ spendLimit: 100 });
    const job = await sdk.articles.generate('fail-again');
    if (!isJob(job)) throw new Error('expected a job');
    expect(sdk.spent).toBe(100);
    finishJobs();
    expect((await sdk.jobs.get(job.job_id)).status).toBe('failed');
    expect(sdk.spent).toBe(0);
    await sdk.jobs.waitFor(job.job_id);
    await sdk.jobs.get(job.job_id);
    expect(sdk.spent).toBe(0);
  });

  it('one idempotency key is one charge: a replay is neither counted nor refused', async () => {
    const sdk = client({ spendLimit: 100 });
    const idempotencyKey = 'order-42-article';
    const first = await sdk.articles.generate('ada-lovelace', { idempotencyKey });
    const replay = await sdk.articles.generate('ada-lovelace', { idempotencyKey });
    expect(replay).toEqual(first);
    expect(sdk.spent).toBe(100);
    // A replay of a finished job still costs nothing and is not refused at the limit.
    finishJobs();
    await sdk.articles.generateAndWait('ada-lovelace', { idempotencyKey });
    expect(sdk.spent).toBe(100);
    expect((await ledgerCharges(mock.url, 'rich')).net).toBe(100);
  });

  it('retries of one call are one charge; a call whose every answer was lost counts its worst case until a replay says', async () => {
    await setFaults([{ route: 'POST /api/v1/articles', kind: 'lost', probability: 1 }]);
    const sdk = client({ spendLimit: 100 });
    const lost = await rejectionOf(sdk.articles.generate('ada-lovelace'), ServerError);
    expect(lost.attempts).toBe(3);
    expect(sdk.spent).toBe(100); // it did start the job: three attempts, one key, one charge
    expect((await ledgerCharges(mock.url, 'rich')).net).toBe(100);
    await setFaults([]);
    // Passing the key back is how to learn what happened: it is not refused at the limit.
    const job = await sdk.articles.generate('ada-lovelace', { idempotencyKey: lost.idempotencyKey! });
    expect(isJob(job) && job.status).toBe('queued');
    expect(sdk.spent).toBe(100);
    await rejectionOf(sdk.articles.generate('grace-hopper'), SpendLimitError);
  });

  it('a key whose answers were lost but which did nothing is given back when the server says so', async () => {
    // Every answer fails without doing anything; the client cannot tell, and counts the worst case.
    await setFaults([{ route: 'POST /api/v1/articles', kind: 'fail', probability: 1 }]);
    const sdk = client({ spendLimit: 100 });
    const lost = await rejectionOf(sdk.articles.generate('notfound-someone'), ServerError);
    expect(sdk.spent).toBe(100);
    await setFaults([]);
    // The replay meets a 404: a key that had done something would have been answered with it.
    await rejectionOf(
      sdk.articles.generate('notfound-someone', { idempotencyKey: lost.idempotencyKey! }),
      NotFoundError,
    );
    expect(sdk.spent).toBe(0);
    expect((await ledgerCharges(mock.url, 'rich')).net).toBe(0);
  });

  it('a call whose retry meets a 409 did nothing under its key: its worst case is not counted', async () => {
    // Another account's job is active for the profile: a start meets 409, whatever its key.
    await client({}, 'key-cheap-1').articles.generate('busy-profile');
    // The first attempt fails without doing anything, which the client cannot tell; the retry
    // carries the same key, so had the first done something it would be replayed, not refused.
    mock.service.stub({
      match: { route: 'POST /api/v1/articles', account: 'rich' },
      outcome: { status: 500 },
      times: 1,
    });
    const sdk = client({ spendLimit: 100, maxRetries: 1 });
    const refused = await rejectionOf(sdk.articles.generate('busy-profile'), ConflictError);
    expect(refused.attempts).toBe(2);
    expect(sdk.spent).toBe(0);
    expect((await ledgerCharges(mock.url, 'rich')).net).toBe(0);
    // The whole limit is there again: a generation elsewhere is let out, and counted.
    await sdk.articles.generate('free-profile');
    expect(sdk.spent).toBe(100);
    expect((await ledgerCharges(mock.url, 'rich')).net).toBe(100);
  });

  it('a 409 for a key another call used keeps what that call counted', async () => {
    // The first call's every answer is lost after its job started: it counts its worst case.
    await setFaults([{ route: 'POST /api/v1/articles', kind: 'lost', probability: 1 }]);
    const sdk = client({ spendLimit: 200, maxRetries: 0 });
    const lost = await rejectionOf(sdk.articles.generate('ada-lovelace'), ProfileArticlesError);
    expect(sdk.spent).toBe(100);
    await setFaults([]);
    // The same key for another profile: a 409 that says the key was used, so the count stays.
    await rejectionOf(
      sdk.articles.generate('grace-hopper', { idempotencyKey: lost.idempotencyKey! }),
      ConflictError,
    );
    expect(sdk.spent).toBe(100);
    expect((await ledgerCharges(mock.url, 'rich')).net).toBe(100);
  });

  it('each attempt of a read may be charged: its retries are held one by one against the limit', async () => {
    // The read happens, the answer is lost: every retry is charged again (reads have no key).
    await setFaults([{ route: 'GET /api/v1/articles/{profile_id}', kind: 'lost', probability: 1 }]);
    const sdk = client({ spendLimit: 102 });
    await sdk.articles.generate('ada-lovelace');
    finishJobs();
    const error = await rejectionOf(sdk.articles.read('ada-lovelace'), SpendLimitError);
    expect(error).toMatchObject({ spent: 102, inFlight: 0, price: 1, attempts: 2 });
    expect(error.message).toMatch(/the retry was not sent$/);
    expect(heard('GET', '/articles/')).toBe(2);
    const ledger = await ledgerCharges(mock.url, 'rich');
    expect(ledger.net).toBe(102);
    expect(sdk.spent).toBe(102);
  });

  it('an answer taken unread (asResponse) counts its worst case; withResponse counts what it says', async () => {
    const sdk = client({ spendLimit: 1_000 });
    const started = await sdk.articles.generate('ada-lovelace').asResponse();
    expect(started.status).toBe(202);
    expect(sdk.spent).toBe(100);
    finishJobs();
    // A read's body unread: the price it may have cost, which is what it did cost.
    expect((await sdk.articles.read('ada-lovelace').asResponse()).status).toBe(200);
    expect(sdk.spent).toBe(101);
    const { data } = await sdk.articles.read('ada-lovelace').withResponse();
    expect(data.credits_charged).toBe(1);
    expect(sdk.spent).toBe(102);
    expect((await ledgerCharges(mock.url, 'rich')).net).toBe(102);
  });

  it('client.spent counts without a limit, and the limit is checked', () => {
    expect(client().spent).toBe(0);
    for (const spendLimit of [-1, Number.NaN, Number.POSITIVE_INFINITY, '100' as unknown as number]) {
      expect(() => client({ spendLimit })).toThrow(InvalidArgumentError);
    }
    expect(() => client({ spendLimit: 0 })).not.toThrow();
    expect(JSON.parse(JSON.stringify(client({ spendLimit: 5 })))).toMatchObject({ spendLimit: 5 });
  });

  it('a spendLimit of 0 sends no paid call; free calls go on', async () => {
    const sdk = client({ spendLimit: 0 });
    await rejectionOf(sdk.articles.read('ada-lovelace'), SpendLimitError);
    await rejectionOf(sdk.articles.generate('ada-lovelace'), SpendLimitError);
    await rejectionOf(sdk.articles.update('ada-lovelace'), SpendLimitError);
    expect((await sdk.credits.balance()).credits).toBe(100_000);
    expect(heard('POST', '/articles') + heard('GET', '/articles/')).toBe(0);
  });
});

async function setFaults(rules: object[]): Promise<void> {
  const answer = await fetch(`${mock.url}/_mock/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seed: 1, rules }),
  });
  expect(answer.status).toBe(200);
}

describe('a server that advertises a lower price than it charges', () => {
  it('12 concurrent generates under spendLimit 250 send at most 2: a generation is held at no less than the default', async () => {
    // The balance says a generation costs 1; the mock charges each one 100.
    const liar = await startDriftingMock(advertise({ generation_credits: 1 }), {
      accounts: [
        {
          id: 'lied-to',
          apiKeys: ['key-lied-to-1'],
          credits: 10_000,
          pricing: { requests_per_minute: 100_000 },
        },
      ],
    });
    try {
      const sdk = new ProfileArticles({ apiKey: 'key-lied-to-1', baseUrl: liar.url, spendLimit: 250 });
      expect((await sdk.credits.balance()).pricing.generation_credits).toBe(1);
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => sdk.articles.generate(`lied-to-${i}`)),
      );
      const sent = liar.service
        .journal()
        .filter((e) => e.method === 'POST' && e.path.startsWith('/api/v1/articles'));
      expect(sent.length).toBeLessThanOrEqual(2);
      expect(
        results.filter((r) => r.status === 'rejected' && r.reason instanceof SpendLimitError),
      ).toHaveLength(12 - sent.length);
      expect(sdk.spent).toBeLessThanOrEqual(250);
      const ledger = await ledgerCharges(liar.url, 'lied-to');
      expect(ledger.peak).toBeLessThanOrEqual(250);
      expect(sdk.spent).toBe(ledger.net);
    } finally {
      await liar.close();
    }
  });
});
