// The SDK against the real mock server: over HTTP, and the same suite through msw.
import type { MockConfig, MockService } from '@profile-articles/mock-server';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { startMock, type TransportKind } from '@profile-articles/test-utils/start-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  CheckoutUnavailableError,
  ConflictError,
  InsufficientCreditsError,
  InvalidArgumentError,
  isJob,
  JobFailedError,
  NotFoundError,
  PaymentsNotConfiguredError,
  ProfileArticles,
  RateLimitError,
  ValidationError,
} from '../src/node.js';

const CONFIG: MockConfig = {
  accounts: [
    { id: 'acme', apiKeys: ['key-0001'], credits: 1000 },
    { id: 'poor', apiKeys: ['key-poor'], credits: 50 },
    { id: 'limited', apiKeys: ['key-limited'], credits: 1000, pricing: { requests_per_minute: 2 } },
  ],
  jobs: { queuedMs: 30, runningMs: 60 },
};

function useService(kind: TransportKind, config: MockConfig = CONFIG) {
  const ctx = {} as {
    service: MockService;
    baseUrl: string;
    client: (key?: string, extra?: object) => ProfileArticles;
  };
  let close: () => unknown;
  beforeAll(async () => {
    const mock = await startMock(kind, config, {
      mswBaseUrl: 'http://sdk-contract.test',
      onUnhandledRequest: 'error',
    });
    ctx.service = mock.service;
    ctx.baseUrl = mock.baseUrl;
    close = mock.close;
  });
  afterAll(() => close());
  beforeEach(() => ctx.service.reset());
  ctx.client = (key = 'key-0001', extra = {}) =>
    new ProfileArticles({ apiKey: key, baseUrl: ctx.baseUrl, pollIntervalMs: 20, maxRetries: 0, ...extra });
  return ctx;
}

describe.each<TransportKind>(['http', 'msw'])('SDK contract over %s', (kind) => {
  const ctx = useService(kind);

  it('generateAndWait: polls the job to its article, charging 100', async () => {
    const client = ctx.client();
    const polled: string[] = [];
    const article = await client.articles.generateAndWait('ada-lovelace', {
      onPoll: (job) => polled.push(job.status),
    });
    expect(article).toMatchObject({ title: 'Ada Lovelace', current_version: 1 });
    expect(polled[0]).toBe('queued');
    expect(polled.at(-1)).toBe('succeeded');
    expect((await client.credits.balance()).credits).toBe(900);
  });

  it('generate answers a Job first and a ReadResponse once the article exists', async () => {
    const client = ctx.client();
    const first = await client.articles.generate('ada-lovelace');
    expect(isJob(first)).toBe(true);
    if (!isJob(first)) return;
    const done = await client.jobs.waitFor(first.job_id, { intervalMs: 10 });
    expect(done.status).toBe('succeeded');
    const second = await client.articles.generate('ada-lovelace');
    expect(isJob(second)).toBe(false);
    if (isJob(second)) return;
    expect(second.credits_charged).toBe(1);
    expect(await client.articles.generateAndWait('ada-lovelace')).toMatchObject({ title: 'Ada Lovelace' });
  });

  it('replays with the caller’s idempotency key without charging again', async () => {
    const client = ctx.client();
    const a = await client.articles.generate('grace-hopper', { idempotencyKey: 'fixed' });
    const b = await client.articles.generate('grace-hopper', { idempotencyKey: 'fixed' });
    expect(isJob(a) && isJob(b) && a.job_id === b.job_id).toBe(true);
    expect((await client.credits.balance()).credits).toBe(900);
  });

  it('read, update and updateAndWait', async () => {
    const client = ctx.client();
    await client.articles.generateAndWait('ada-lovelace');
    const read = await client.articles.read('ada-lovelace');
    expect(read.credits_charged).toBe(1);
    const updated = await client.articles.updateAndWait('ada-lovelace');
    expect(updated.current_version).toBe(2);
    const job = await client.articles.update('ada-lovelace');
    expect(job.status).toBe('queued');
    expect((await client.jobs.get(job.job_id)).job_id).toBe(job.job_id);
  });

  it('balance fills Pricing; checkout answers a session and credits arrive after payment', async () => {
    const client = ctx.client();
    const balance = await client.credits.balance();
    expect(balance.pricing).toMatchObject({
      read_credits: 1,
      generation_credits: 100,
      credit_price_cents: 5,
    });
    const session = await client.credits.checkout(100);
    expect(session.url).toContain(session.session_id);
    expect((await client.credits.balance()).credits).toBe(1000);
    ctx.service.completeCheckout(session.session_id);
    expect((await client.credits.balance()).credits).toBe(1100);
  });

  it('JobFailedError for a failed job, with the job refunded', async () => {
    const client = ctx.client();
    const error = await rejectionOf(client.articles.generateAndWait('fail-someone'), JobFailedError);
    expect(error.job).toMatchObject({ status: 'failed', credits_charged: 0 });
    expect((await client.credits.balance()).credits).toBe(1000);
  });

  it('401 AuthenticationError', async () => {
    const error = await rejectionOf(ctx.client('wrong-key').credits.balance(), AuthenticationError);
    expect(error.status).toBe(401);
  });

  it('402 InsufficientCreditsError with the idempotency key used', async () => {
    const error = await rejectionOf(
      ctx.client('key-poor').articles.generate('ada-lovelace'),
      InsufficientCreditsError,
    );
    expect(error.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('404 NotFoundError for a missing article, a notfound- profile and an unknown job', async () => {
    const client = ctx.client();
    expect(await rejectionOf(client.articles.read('nobody'))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(client.articles.generate('notfound-x'))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(client.jobs.get('00000000-0000-4000-8000-000000000000'))).toBeInstanceOf(
      NotFoundError,
    );
    expect(await rejectionOf(client.articles.update('nobody'))).toBeInstanceOf(NotFoundError);
  });

  it('409 ConflictError for an active job and for a reused key', async () => {
    const client = ctx.client();
    // A stuck- profile's job never ends, so the second call meets it active however slow the
    // machine (ada-lovelace's 90 ms job could finish first and answer 200).
    await client.articles.generate('stuck-ada', { idempotencyKey: 'k1' });
    await rejectionOf(client.articles.generate('stuck-ada'), ConflictError);
    expect(
      await rejectionOf(client.articles.generate('grace-hopper', { idempotencyKey: 'k1' })),
    ).toBeInstanceOf(ConflictError);
  });

  it('422 ValidationError with the array detail', async () => {
    const client = ctx.client();
    // The SDK refuses bad arguments itself, so the server's 422 comes from a proxy that drops the key.
    const withoutKey: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      request.headers.delete('idempotency-key');
      return fetch(request);
    };
    const stripped = ctx.client('key-0001', { fetch: withoutKey });
    const error = await rejectionOf(stripped.articles.generate('x'), ValidationError);
    expect(Array.isArray(error.detail)).toBe(true);
    // The SDK refuses a 201-character key itself; the server's 422 for it is proven in the mock's tests.
    expect(
      await rejectionOf(client.articles.generate('x', { idempotencyKey: 'k'.repeat(201) })),
    ).toBeInstanceOf(InvalidArgumentError);
  });

  it('429 RateLimitError from a low requests_per_minute', async () => {
    const client = ctx.client('key-limited');
    await client.credits.balance();
    await client.credits.balance();
    const error = await rejectionOf(client.credits.balance(), RateLimitError);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // The server's detail says the limit was exceeded; the message adds what to do, not that
    // again, in a sentence of its own.
    expect(error.message).toMatch(
      /^429 Rate limit of 2 requests per minute exceeded; retry in \d+ s\. Slow down: /,
    );
    expect(error.message.match(/exceeded/gi)).toHaveLength(1);
    // With retries on, a Retry-After longer than maxRetryDelayMs fails at once as well.
    const patient = ctx.client('key-limited', { maxRetries: 2, maxRetryDelayMs: 500 });
    expect(await rejectionOf(patient.credits.balance())).toBeInstanceOf(RateLimitError);
  });

  it('400 BadRequestError outside the purchase range', async () => {
    expect(await rejectionOf(ctx.client().credits.checkout(5))).toBeInstanceOf(BadRequestError);
  });
});

describe.each([
  ['http', 'disabled', PaymentsNotConfiguredError],
  ['http', 'unavailable', CheckoutUnavailableError],
  ['msw', 'disabled', PaymentsNotConfiguredError],
  ['msw', 'unavailable', CheckoutUnavailableError],
] as const)('checkout over %s with payments %s', (kind, payments, ErrorClass) => {
  const ctx = useService(kind, { ...CONFIG, payments });
  it(`throws ${ErrorClass.name} after one attempt`, async () => {
    const error = await rejectionOf(
      ctx.client('key-0001', { maxRetries: 2 }).credits.checkout(100),
      ErrorClass,
    );
    expect(error.attempts).toBe(1);
  });
});
