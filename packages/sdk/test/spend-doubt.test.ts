// What the spend ledger may conclude, and what it may not, when an answer is missing, a key is
// shared, or a path is spelled another way: against the real mock over HTTP, whose ledger
// (GET /_mock/ledger) is the proof. Each case is one a review found `client.spent` below what
// the account was charged, or the account charged past the limit.
import { createMockService, startMockServer } from '@profile-articles/mock-server';
import { ledgerCharges } from '@profile-articles/test-utils/ledger';
import { useMockServer } from '@profile-articles/test-utils/mock-suite';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { seededIds } from '@profile-articles/test-utils/seeded-ids';
import { describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  InvalidArgumentError,
  isJob,
  type Job,
  type Middleware,
  ProfileArticles,
  ProfileArticlesError,
  SpendLimitError,
} from '../src/node.js';

const mock = useMockServer({
  accounts: [
    { id: 'rich', apiKeys: ['key-rich-1'], credits: 100_000, pricing: { requests_per_minute: 100_000 } },
    { id: 'other', apiKeys: ['key-other-1'], credits: 100_000, pricing: { requests_per_minute: 100_000 } },
    { id: 'poor', apiKeys: ['key-poor-1'], credits: 50 },
  ],
  jobs: { queuedMs: 60_000, runningMs: 60_000 },
  articles: [{ profileId: 'ada' }, { profileId: 'bob' }, { profileId: 'cyd' }],
});

const finishJobs = () => mock.service.advanceClock(120_001);
const client = (extra: ClientOptions = {}, apiKey = 'key-rich-1') =>
  new ProfileArticles({ apiKey, baseUrl: mock.url, pollIntervalMs: 5, ...extra });
const charged = async (account = 'rich') => ledgerCharges(mock.url, account);
/** The rich account's next update takes its attempt's answer this long after acting. */
const slowNextUpdate = (latencyMs: number) =>
  mock.service.stub({
    match: { route: 'POST /api/v1/articles/{profile_id}/update', account: 'rich' },
    outcome: { latencyMs },
    times: 1,
  });
/** Until the account has been charged `net` (the slow attempt acting), for at most 10 s. */
async function chargedReaches(net: number): Promise<number> {
  const until = Date.now() + 10_000;
  let now = (await charged()).net;
  while (now < net && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    now = (await charged()).net;
  }
  return now;
}

describe('spent, when an attempt goes unanswered', () => {
  it('a refusal after an unanswered attempt proves nothing: that attempt may still act, and its worst case stays', async () => {
    // 409 and 404, each at the retry while the first attempt is still at work on the server.
    for (const [profile, setUp] of [
      // Another account's job is active for the profile: a start is a 409.
      ['ada', () => client({}, 'key-other-1').articles.update('ada')],
      // Another account's generate is under way: no article yet, so an update is a 404.
      ['fresh-profile', () => client({}, 'key-other-1').articles.generate('fresh-profile')],
    ] as const) {
      mock.service.reset();
      await setUp();
      slowNextUpdate(1_200);
      const sdk = client({ spendLimit: 100, maxRetries: 1, timeoutMs: 400 });
      const failure = await rejectionOf(sdk.articles.update(profile), ProfileArticlesError);
      expect(failure.attempts, profile).toBe(2);
      expect(sdk.spent, profile).toBe(100);
      // The other job ends; the first attempt wakes up on the server, and its update starts.
      finishJobs();
      expect(await chargedReaches(100), profile).toBe(100);
      // The limit is spent: nothing more goes out.
      await rejectionOf(sdk.articles.update('bob'), SpendLimitError);
      expect((await charged()).peak, profile).toBeLessThanOrEqual(100);
    }
  });

  it('a stub cannot refuse a retry whose key acted: the replay answers it, as the service would', async () => {
    // The first attempt acts and its answer is lost; a 409 stub waits for the retry.
    const route = 'POST /api/v1/articles/{profile_id}/update';
    mock.service.stub({ match: { route, account: 'rich' }, outcome: { status: 409 }, times: 1, priority: 0 });
    mock.service.stub({ match: { route, account: 'rich' }, outcome: { lost: true }, times: 1, priority: 1 });
    const sdk = client({ spendLimit: 100, maxRetries: 1 });
    const job = await sdk.articles.update('ada');
    expect(job.status).toBe('queued');
    expect((await charged()).net).toBe(100);
    expect(sdk.spent).toBe(100);
  });
});

describe('spent, when one budget spans API keys', () => {
  it('the same Idempotency-Key under another API key is another account’s key: it is held and counted', async () => {
    const sdk = client({ spendLimit: 200 });
    await sdk.articles.update('ada', { idempotencyKey: 'order-42' });
    const tenant = sdk.withOptions({ apiKey: 'key-other-1' });
    await tenant.articles.update('bob', { idempotencyKey: 'order-42' });
    expect(sdk.spent).toBe(200);
    expect((await charged('rich')).net + (await charged('other')).net).toBe(200);
    // One budget: the third update is refused.
    await rejectionOf(tenant.articles.update('cyd'), SpendLimitError);
  });

  it('another account’s 402 or 404 for the same key gives back nothing of this account’s', async () => {
    for (const [tenantKey, profile] of [
      ['key-poor-1', 'bob'],
      ['key-other-1', 'nobody-here'],
    ] as const) {
      mock.service.reset();
      mock.service.stub({
        match: { route: 'POST /api/v1/articles/{profile_id}/update', account: 'rich' },
        outcome: { lost: true },
        times: 1,
      });
      const sdk = client({ spendLimit: 100, maxRetries: 0 });
      await rejectionOf(sdk.articles.update('ada', { idempotencyKey: 'order-7' }), Error);
      expect(sdk.spent).toBe(100);
      const tenant = sdk.withOptions({ apiKey: tenantKey });
      // Held as a key of its own: at the limit, it is not even sent.
      await rejectionOf(tenant.articles.update(profile, { idempotencyKey: 'order-7' }), SpendLimitError);
      expect(sdk.spent).toBe(100);
      await rejectionOf(sdk.articles.update('cyd'), SpendLimitError);
      expect((await charged()).peak).toBeLessThanOrEqual(100);
    }
  });
});

describe('spent, when one budget spans servers', () => {
  it('the same Idempotency-Key on another origin is another server’s key: it is held and counted', async () => {
    const second = await startMockServer({
      port: 0,
      config: {
        accounts: [{ id: 'rich', apiKeys: ['key-rich-1'], credits: 1_000 }],
        articles: [{ profileId: 'ada' }],
      },
    });
    try {
      const sdk = client({ spendLimit: 150 });
      await sdk.articles.update('ada', { idempotencyKey: 'k' });
      const elsewhere = sdk.withOptions({ baseUrl: second.url });
      // Not a replay there: it holds its price, and the budget has no room for it.
      await rejectionOf(elsewhere.articles.update('ada', { idempotencyKey: 'k' }), SpendLimitError);
      expect((await ledgerCharges(second.url, 'rich')).net).toBe(0);
      const roomy = client({ spendLimit: 250 });
      await roomy.articles.update('bob', { idempotencyKey: 'k2' });
      await roomy.withOptions({ baseUrl: second.url }).articles.update('ada', { idempotencyKey: 'k2' });
      expect(roomy.spent).toBe(200);
    } finally {
      await second.close();
    }
  });
});

/** Runs `body` with this process's clock (the SDK's and the mock's) `ms` ahead. */
async function later<T>(ms: number, body: () => Promise<T>): Promise<T> {
  const realNow = Date.now;
  Date.now = () => realNow() + ms;
  try {
    return await body();
  } finally {
    Date.now = realNow;
  }
}

describe('spent, when a key outlives the server’s memory of it', () => {
  it('a key whose answers were lost, sent again after a day, is a new key: the old worst case stays', async () => {
    mock.service.stub({
      match: { route: 'POST /api/v1/articles', account: 'rich' },
      outcome: { reset: 'after' },
      times: 1,
    });
    const sdk = client({ spendLimit: 250, maxRetries: 0 });
    await rejectionOf(sdk.articles.generate('ada', { idempotencyKey: 'g1' }), ProfileArticlesError);
    expect(sdk.spent).toBe(100); // the worst case: it read the article, for 1
    // The mock forgot g1: it reads the article again.
    await later(25 * 3600_000, () => sdk.articles.generate('ada', { idempotencyKey: 'g1' }));
    expect((await charged()).net).toBe(2);
    expect(sdk.spent).toBe(101);
  });

  it('the day runs from the key’s first sending: a replay does not move it', async () => {
    const sdk = client({ spendLimit: 150 });
    await sdk.articles.update('ada', { idempotencyKey: 'k' });
    finishJobs();
    await later(23 * 3600_000, () => sdk.articles.update('ada', { idempotencyKey: 'k' }));
    expect(sdk.spent).toBe(100);
    await later(25 * 3600_000, () =>
      rejectionOf(sdk.articles.update('ada', { idempotencyKey: 'k' }), SpendLimitError),
    );
    expect((await charged()).peak).toBeLessThanOrEqual(150);
  });

  it('a key answered more than a day ago holds its price again, and a new job under it is a new charge', async () => {
    const sdk = client({ spendLimit: 100 });
    await sdk.articles.update('ada', { idempotencyKey: 'nightly-ada' });
    finishJobs();
    // The mock, like Stripe, keeps a key for 24 hours.
    mock.service.advanceClock(25 * 3600_000);
    const realNow = Date.now;
    Date.now = () => realNow() + 25 * 3600_000;
    try {
      await rejectionOf(sdk.articles.update('ada', { idempotencyKey: 'nightly-ada' }), SpendLimitError);
      const roomier = sdk.withOptions({ spendLimit: 1_000 });
      await roomier.articles.update('ada', { idempotencyKey: 'nightly-ada' });
      await roomier.articles.update('ada', { idempotencyKey: 'nightly-ada' }); // a replay, now
      expect(roomier.spent).toBe(100);
    } finally {
      Date.now = realNow;
    }
    expect((await charged()).net).toBe(200);
  });
});

describe('spent, for request() to a paid path in another spelling', () => {
  it('a percent-encoded, doubled or trailing-slash spelling of a paid endpoint is held and counted as that endpoint', async () => {
    for (const path of [
      '/%61rticles',
      '/api/v1/%61rticles',
      '/api/v%31/articles',
      '/articles/',
      '/api/v1//articles',
      // What the URL parser rewrites: a backslash is a slash, tabs and newlines are dropped,
      // trailing spaces and controls are cut.
      '/api/v1\\articles',
      '/arti\tcles',
      '/arti\ncles',
      '/articles ',
      '/articles\u0001',
    ]) {
      mock.service.reset();
      const sdk = client({ spendLimit: 100 });
      await sdk.request({ method: 'POST', path, body: { profile_id: 'new-profile' } }).catch(() => undefined);
      const { net } = await charged();
      // Sent and charged, or refused by the server and free: either way the count is not below.
      expect(sdk.spent, path).toBeGreaterThanOrEqual(net);
      if (net > 0) await rejectionOf(sdk.articles.update('bob'), SpendLimitError);
    }
    mock.service.reset();
    const sdk = client({ spendLimit: 100 });
    await sdk.request({ method: 'POST', path: '/articles/%62ob/update' });
    expect((await charged()).net).toBe(100);
    expect(sdk.spent).toBe(100);
    // A read spelled with a backslash is a paid read too: at the limit, it is not sent.
    await rejectionOf(sdk.request({ method: 'GET', path: '/articles\\ada' }), SpendLimitError);
    await rejectionOf(
      sdk.request({ method: 'POST', path: '/%61rticles', body: { profile_id: 'x' } }),
      SpendLimitError,
    );
  });
});

describe('spent, when calls with one key overlap', () => {
  it('a refusal gives back nothing while another call with the key is under way on that count', async () => {
    const route = 'POST /api/v1/articles/{profile_id}/update';
    const sdk = client({ spendLimit: 100, maxRetries: 0 });
    // Another account's generate is under way: no article yet, so an update is a 404.
    await client({}, 'key-other-1').articles.generate('fresh');
    // C: a 500 that did nothing; its worst case counts under the key.
    mock.service.stub({ match: { route, account: 'rich' }, outcome: { status: 500 }, times: 1 });
    await rejectionOf(sdk.articles.update('fresh', { idempotencyKey: 'K' }), ProfileArticlesError);
    expect(sdk.spent).toBe(100);
    // A: the key again, slow to act; it holds nothing, the key's count covering it.
    mock.service.stub({ match: { route, account: 'rich' }, outcome: { latencyMs: 1_000 }, times: 1 });
    const slow = sdk.articles.update('fresh', { idempotencyKey: 'K' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    // B: the key again, a 404 at once. It gives nothing back while A is under way.
    await rejectionOf(sdk.articles.update('fresh', { idempotencyKey: 'K' }), ProfileArticlesError);
    expect(sdk.spent).toBe(100);
    finishJobs(); // the article now exists: A will start an update
    await rejectionOf(sdk.articles.update('ada'), SpendLimitError);
    await slow;
    expect(sdk.spent).toBe(100);
    expect((await charged()).peak).toBeLessThanOrEqual(100);
  });
});

describe('spent, for jobs of two servers', () => {
  it('a failed job on another origin gives back nothing of a job with the same id here', async () => {
    const config = {
      accounts: [{ id: 'acme', apiKeys: ['key-acme-1'], credits: 100_000 }],
      jobs: { queuedMs: 60_000, runningMs: 60_000 },
    };
    // Seeded ids: both servers give their first job the same id.
    const [prod, staging] = await Promise.all(
      [1, 2].map(() =>
        startMockServer({ port: 0, service: createMockService(config, { newId: seededIds() }) }),
      ),
    );
    try {
      const sdk = new ProfileArticles({ apiKey: 'key-acme-1', baseUrl: prod!.url, spendLimit: 100 });
      const started = await sdk.articles.generate('ada');
      const failing = await new ProfileArticles({
        apiKey: 'key-acme-1',
        baseUrl: staging!.url,
      }).articles.generate('fail-x');
      expect(isJob(started) && isJob(failing) && started.job_id === failing.job_id).toBe(true);
      staging!.service.advanceClock(200_000);
      const seen = await sdk.withOptions({ baseUrl: staging!.url }).jobs.get((failing as Job).job_id);
      expect(seen.status).toBe('failed');
      expect(sdk.spent).toBe(100);
      await rejectionOf(sdk.articles.generate('bob'), SpendLimitError);
    } finally {
      await Promise.all([prod!.close(), staging!.close()]);
    }
  });
});

describe('spent, with a middleware that sends again', () => {
  it('a second next() in one attempt is refused, and the first send counts as maybe charged', async () => {
    const sendAgainOn5xx: Middleware = async (request, next) => {
      const answer = await next(request);
      return answer.status >= 500 ? next(request) : answer;
    };
    for (const op of ['generate', 'read'] as const) {
      mock.service.reset();
      const route = op === 'generate' ? 'POST /api/v1/articles' : 'GET /api/v1/articles/{profile_id}';
      mock.service.stub({ match: { route, account: 'rich' }, outcome: { lost: true }, times: 1 });
      const sdk = client({
        spendLimit: op === 'read' ? 1 : 100,
        middleware: [sendAgainOn5xx],
        maxRetries: 0,
      });
      const call = op === 'generate' ? sdk.articles.generate('fresh-1') : sdk.articles.read('ada');
      const refused = await rejectionOf(call, InvalidArgumentError);
      expect(refused.message).toMatch(/next\(\) once an attempt/);
      // The first send acted: it counts, and the limit is spent.
      expect((await charged()).net, op).toBe(op === 'read' ? 1 : 100);
      expect(sdk.spent, op).toBe(op === 'read' ? 1 : 100);
      await rejectionOf(
        op === 'read' ? sdk.articles.read('ada') : sdk.articles.generate('fresh-2'),
        SpendLimitError,
      );
    }
  });
});

describe('spent, when the limit refuses a call with a key', () => {
  it('the refused call is not left under way: a later 404 for the key still gives its count back', async () => {
    const sdk = client({ spendLimit: 100, maxRetries: 0 });
    const failing = await sdk.articles.generate('fail-x'); // 100 held until it fails
    // Refused by the limit before anything is sent, with the key K.
    await rejectionOf(sdk.articles.update('fresh', { idempotencyKey: 'K' }), SpendLimitError);
    finishJobs();
    await sdk.jobs.get((failing as Job).job_id); // failed and refunded: room again
    expect(sdk.spent).toBe(0);
    // K again: a 500 that did nothing counts its worst case; then a 404 for K says it did
    // nothing, and no call with K is under way, so the count is given back.
    mock.service.stub({
      match: { route: 'POST /api/v1/articles/{profile_id}/update', account: 'rich' },
      outcome: { status: 500 },
      times: 1,
    });
    await rejectionOf(sdk.articles.update('fresh', { idempotencyKey: 'K' }), ProfileArticlesError);
    expect(sdk.spent).toBe(100);
    await rejectionOf(sdk.articles.update('fresh', { idempotencyKey: 'K' }), ProfileArticlesError);
    expect(sdk.spent).toBe(0);
    expect((await charged()).net).toBe(0);
  });
});
