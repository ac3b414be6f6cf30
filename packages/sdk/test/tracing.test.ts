// OpenTelemetry spans against the real mock over HTTP, read from an InMemorySpanExporter under a
// BasicTracerProvider: what each call and wait looks like, and that no span, attribute, event
// or status ever holds the key or a body.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { payCheckoutPage, startMockServer } from '@profile-articles/mock-server';
import { keyLeaks } from '@profile-articles/test-utils/key-echoes';
import { useMockServer } from '@profile-articles/test-utils/mock-suite';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  type ClientOptions,
  NotFoundError,
  ProfileArticles,
  ServerError,
  SpendLimitError,
} from '../src/node.js';
import { ENDPOINTS } from '../src/schemas/endpoints.js';
import { OPERATIONS } from '../src/tracing/spans.js';

const KEY = 'key-trace-1';
const mock = useMockServer({
  accounts: [
    { id: 'tracer', apiKeys: [KEY], credits: 100_000, pricing: { requests_per_minute: 100_000 } },
    { id: 'poor', apiKeys: ['key-poor-1'], credits: 0 },
  ],
  jobs: { queuedMs: 30, runningMs: 60 },
});

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
afterEach(() => exporter.reset());

const client = (extra: ClientOptions = {}) =>
  new ProfileArticles({
    apiKey: KEY,
    baseUrl: mock.url,
    pollIntervalMs: 5,
    tracerProvider: provider,
    ...extra,
  });

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === `profile_articles.${name}`);
const only = (name: string): ReadableSpan => {
  const found = named(name);
  expect(found.map((span) => span.name)).toEqual([`profile_articles.${name}`]);
  return found[0]!;
};
/** Everything a span carries that an exporter sends, as one text. */
const exported = (span: ReadableSpan) =>
  JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    status: span.status,
    links: span.links,
  });

describe('spans of single calls', () => {
  it('a read is one CLIENT span with the method, template, host, status, request id, attempts, credits and profile', async () => {
    const sdk = client();
    const { data: generated } = await sdk.articles.generate('ada-lovelace').withResponse();
    expect(generated).toBeTruthy();
    await sdk.jobs.waitFor((generated as { job_id: string }).job_id);
    exporter.reset();
    const { data, requestId } = await sdk.articles.read('ada-lovelace').withResponse();
    const span = only('articles.read');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'url.template': '/api/v1/articles/{profile_id}',
      'server.address': '127.0.0.1',
      'http.response.status_code': 200,
      'profile_articles.request_id': requestId,
      'profile_articles.attempts': 1,
      'profile_articles.credits_charged': data.credits_charged,
      'profile_articles.profile_id': 'ada-lovelace',
    });
    expect(requestId).toMatch(/\S/);
    expect(span.events).toEqual([]);
  });

  it('a paid generate carries its idempotency key and what it was charged, as the ledger says', async () => {
    const job = await client().articles.generate('grace-hopper', { idempotencyKey: 'trace-key-1' });
    const span = only('articles.generate');
    expect(span.attributes['profile_articles.idempotency_key']).toBe('trace-key-1');
    expect(span.attributes['http.response.status_code']).toBe(202);
    expect(span.attributes['url.template']).toBe('/api/v1/articles');
    expect(span.attributes['profile_articles.profile_id']).toBe('grace-hopper');
    const charged = span.attributes['profile_articles.credits_charged'];
    expect(charged).toBe(job.credits_charged);
    expect(charged).toBeGreaterThan(0);
  });

  it('request() is a profile_articles.request span, with the contract path when the path is known', async () => {
    const sdk = client();
    await sdk.request({ method: 'GET', path: '/credits' });
    const known = only('request');
    expect(known.kind).toBe(SpanKind.CLIENT);
    expect(known.attributes['url.template']).toBe('/api/v1/credits');
    expect(known.attributes['http.response.status_code']).toBe(200);
    exporter.reset();
    await expect(sdk.request({ method: 'GET', path: '/not-in-the-table' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const unknown = only('request');
    expect(unknown.attributes['url.template']).toBeUndefined();
    expect(unknown.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a derived client traces as the original does, and withOptions({ tracing: false }) stops it', async () => {
    const original = client();
    await original.withOptions({ timeoutMs: 5_000 }).credits.balance();
    expect(only('credits.balance').kind).toBe(SpanKind.CLIENT);
    exporter.reset();
    await original.withOptions({ tracing: false }).credits.balance();
    expect(spans()).toEqual([]);
  });

  it('caps profile_id at 128 characters, whatever length a refused request sent', async () => {
    const long = 'a'.repeat(300);
    await client()
      .request({ method: 'POST', path: '/articles', body: { profile_id: long } })
      .catch(() => undefined);
    const span = only('request');
    expect(span.attributes['profile_articles.profile_id']).toBe('a'.repeat(128));
  });

  it('a free call carries no credits_charged: a job read is not a charge', async () => {
    const sdk = client();
    const job = await sdk.articles.generate('alan-turing');
    exporter.reset();
    await sdk.jobs.get((job as { job_id: string }).job_id);
    const span = only('jobs.get');
    expect(span.attributes['profile_articles.credits_charged']).toBeUndefined();
    // The job's own profile: known from the answer.
    expect(span.attributes['profile_articles.profile_id']).toBe('alan-turing');
    expect(span.attributes['url.template']).toBe('/api/v1/jobs/{job_id}');
  });

  it('a retried call has a retry event with delay_ms per retry, and its attempts', async () => {
    mock.service.setFaults({ rules: [{ route: 'GET /api/v1/credits', kind: 'fail', probability: 1 }] });
    const delays: number[] = [];
    const sdk = client({
      hooks: {
        // The first attempt met the fault; the retry finds none.
        onRetry: (info) => {
          delays.push(info.delayMs);
          mock.service.setFaults({ rules: [] });
        },
      },
    });
    await sdk.credits.balance();
    const span = only('credits.balance');
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      ['retry', { delay_ms: delays[0] }],
    ]);
    expect(delays).toHaveLength(1);
    expect(span.attributes['profile_articles.attempts']).toBe(2);
    expect(span.attributes['http.response.status_code']).toBe(200);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a failed call is ERROR with the error name and message, its status, request id and attempts', async () => {
    mock.service.setFaults({ rules: [{ route: 'GET /api/v1/credits', kind: 'fail', probability: 1 }] });
    const error = await rejectionOf(client({ maxRetries: 1 }).credits.balance(), ServerError);
    const span = only('credits.balance');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: `ServerError: ${error.message}` });
    expect(span.attributes['http.response.status_code']).toBe(500);
    expect(span.attributes['profile_articles.request_id']).toBe(error.requestId);
    expect(span.attributes['profile_articles.attempts']).toBe(2);
    expect(span.events.map((event) => event.name)).toEqual(['retry']);
  });

  it('a 404 is ERROR, named NotFoundError, with the profile asked for', async () => {
    const error = await rejectionOf(client().articles.read('nobody-here'), NotFoundError);
    const span = only('articles.read');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toBe(`NotFoundError: ${error.message}`);
    expect(span.attributes['profile_articles.profile_id']).toBe('nobody-here');
    expect(span.attributes['http.response.status_code']).toBe(404);
  });

  it('a call the spend limit refuses has a spend_limit event, ERROR and no attempt', async () => {
    const error = await rejectionOf(client({ spendLimit: 0 }).articles.read('ada-lovelace'), SpendLimitError);
    const span = only('articles.read');
    expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
      ['spend_limit', { limit: 0, spent: 0, in_flight: 0, price: 1 }],
    ]);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: `SpendLimitError: ${error.message}` });
    expect(span.attributes['profile_articles.attempts']).toBe(0);
    expect(span.attributes['http.response.status_code']).toBeUndefined();
    expect(mock.service.journal()).toEqual([]);
  });

  it('an error message holding the key is redacted in the status', async () => {
    // A 401 for a key the mock does not know: the span must not spell it.
    const secret = 'sk-live-never-in-a-span-1234';
    const error = await rejectionOf(client({ apiKey: secret }).credits.balance(), AuthenticationError);
    const span = only('credits.balance');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toBe(`AuthenticationError: ${error.message}`);
    expect(exported(span)).not.toContain(secret);
  });
});

describe('spans of waits', () => {
  /** The spans of one trace, each with its parent's name. */
  const tree = () => {
    const all = spans();
    const byId = new Map(all.map((span) => [span.spanContext().spanId, span]));
    return all.map((span) => ({
      name: span.name,
      parent: byId.get(span.parentSpanContext?.spanId ?? '')?.name,
      trace: span.spanContext().traceId,
    }));
  };

  it('generateAndWait is the parent of its generate and its polls, parented without a context manager', async () => {
    const article = await client().articles.generateAndWait('katherine-johnson');
    expect(article.title).toBeTruthy();
    const wait = only('articles.generateAndWait');
    expect(wait.kind).toBe(SpanKind.CLIENT);
    expect(wait.attributes['profile_articles.profile_id']).toBe('katherine-johnson');
    expect(wait.parentSpanContext).toBeUndefined();
    const children = tree().filter((span) => span.name !== wait.name);
    expect(children[0]).toMatchObject({ name: 'profile_articles.articles.generate' });
    expect(children.slice(1).length).toBeGreaterThan(0);
    for (const child of children) {
      expect(child.parent).toBe('profile_articles.articles.generateAndWait');
      expect(child.trace).toBe(wait.spanContext().traceId);
    }
    expect(new Set(children.slice(1).map((child) => child.name))).toEqual(
      new Set(['profile_articles.jobs.get']),
    );
  });

  it('updateAndWait and jobs.waitFor are parents of their requests too', async () => {
    const sdk = client();
    await sdk.articles.generateAndWait('dorothy-vaughan');
    exporter.reset();
    await sdk.articles.updateAndWait('dorothy-vaughan');
    expect(only('articles.updateAndWait').status.code).toBe(SpanStatusCode.UNSET);
    const names = tree()
      .filter((span) => span.name !== 'profile_articles.articles.updateAndWait')
      .map((span) => [span.name, span.parent]);
    expect(names[0]).toEqual(['profile_articles.articles.update', 'profile_articles.articles.updateAndWait']);
    expect(names.every(([, parent]) => parent === 'profile_articles.articles.updateAndWait')).toBe(true);

    const job = await sdk.articles.update('dorothy-vaughan');
    exporter.reset();
    await sdk.jobs.waitFor(job.job_id);
    const polls = tree().filter((span) => span.name === 'profile_articles.jobs.get');
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((span) => span.parent === 'profile_articles.jobs.waitFor')).toBe(true);
  });

  it('checkoutAndWait is the parent of its balance reads and its checkout', async () => {
    const sdk = client();
    let paid: Promise<unknown> | undefined;
    await sdk.credits.checkoutAndWait(50, {
      onCheckout: (session) => {
        paid = payCheckoutPage(session.url);
      },
    });
    await paid;
    const wait = only('credits.checkoutAndWait');
    const children = tree().filter((span) => span.name !== wait.name);
    expect(children.slice(0, 2).map((span) => span.name)).toEqual([
      'profile_articles.credits.balance',
      'profile_articles.credits.checkout',
    ]);
    expect(children.every((span) => span.parent === wait.name)).toBe(true);
  });

  it('a wait that fails is ERROR, and so is the request that failed it', async () => {
    const poor = client({ apiKey: 'key-poor-1' });
    await expect(poor.articles.generateAndWait('mary-jackson')).rejects.toThrow();
    const wait = only('articles.generateAndWait');
    expect(wait.status.code).toBe(SpanStatusCode.ERROR);
    expect(wait.status.message).toMatch(/^InsufficientCreditsError: /);
    expect(only('articles.generate').status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('options', () => {
  it('tracing: false makes no spans, even with a tracerProvider', async () => {
    const sdk = client({ tracing: false });
    await sdk.credits.balance();
    await sdk.articles.generateAndWait('ida-rhodes');
    expect(spans()).toEqual([]);
  });

  it('without tracerProvider, the globally registered provider is used', async () => {
    const global = new InMemorySpanExporter();
    const registered = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(global)] });
    trace.setGlobalTracerProvider(registered);
    try {
      await new ProfileArticles({ apiKey: KEY, baseUrl: mock.url }).credits.balance();
      expect(global.getFinishedSpans().map((span) => span.name)).toEqual([
        'profile_articles.credits.balance',
      ]);
      expect(global.getFinishedSpans()[0]!.instrumentationScope.name).toBe('@profile-articles/sdk');
      // The option's provider wins over the global one.
      await client().credits.balance();
      expect(global.getFinishedSpans()).toHaveLength(1);
      expect(named('credits.balance')).toHaveLength(1);
    } finally {
      trace.disable();
    }
  });

  it('toJSON() leaves the provider out', () => {
    expect(JSON.stringify(client())).not.toContain('tracing');
  });
});

describe('the span names', () => {
  it('name every endpoint of the contract table', () => {
    expect(
      Object.values(ENDPOINTS).map((endpoint) => OPERATIONS[`${endpoint.method} ${endpoint.path}`]),
    ).toEqual([
      'articles.read',
      'articles.generate',
      'articles.update',
      'jobs.get',
      'credits.balance',
      'credits.checkout',
    ]);
    expect(Object.keys(OPERATIONS)).toHaveLength(Object.keys(ENDPOINTS).length);
  });
});

describe('never the key, never a body', () => {
  // A key of the account's, a profile and an idempotency key that may hold the key: every
  // span's attributes, events and status are searched for the key and for the bodies' texts.
  const keyChars = fc.stringMatching(/^[\x21-\x7e]{8,40}$/);
  const slug = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,30}$/);

  it('holds for any key, profile and idempotency key, over reads, generates, waits and failures', async () => {
    await fc.assert(
      fc.asyncProperty(keyChars, slug, fc.boolean(), async (key, profile, keyInProfile) => {
        const server = await startMockServer({
          port: 0,
          config: {
            accounts: [
              { id: 'prop', apiKeys: [key], credits: 10_000, pricing: { requests_per_minute: 100_000 } },
            ],
            jobs: { queuedMs: 5, runningMs: 5 },
          },
        });
        const local = new InMemorySpanExporter();
        const sdk = new ProfileArticles({
          apiKey: key,
          baseUrl: server.url,
          pollIntervalMs: 5,
          tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(local)] }),
        });
        try {
          // A profile and a key of the caller's that spell the API key: redacted in the span.
          const asked = keyInProfile && /^[A-Za-z0-9._~-]+$/.test(key) ? `${profile}-${key}` : profile;
          const article = await sdk.articles.generateAndWait(asked, { idempotencyKey: `idem-${key}` });
          const read = await sdk.articles.read(asked);
          await sdk.credits.balance();
          await sdk.articles.read(`${profile}-missing`).catch(() => {});
          const texts = local.getFinishedSpans().map(exported).join('\n');
          expect(local.getFinishedSpans().length).toBeGreaterThanOrEqual(4);
          expect(texts).not.toContain(key);
          expect(keyLeaks(texts, key)).toEqual([]);
          // No body: the article's text and its sources never appear (the title may be the
          // profile's own name, which the span does carry).
          const bodies = [
            article.content,
            read.article.content,
            ...article.sources.map((s) => JSON.stringify(s)),
          ];
          for (const body of bodies) expect(texts).not.toContain(body);
          expect(texts).not.toContain('"content"');
        } finally {
          await server.close();
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 12) },
    );
  }, 120_000);
});
