// The mock service: state, rules and one fetch-style handler. It knows nothing of
// node:http or msw; the adapters in node.ts and msw.ts only pass Requests in.
import { randomUUID } from 'node:crypto';
import { API_PREFIX } from '@profile-articles/sdk/internal';
import type { Article } from '@profile-articles/sdk/schemas';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  type MockConfig,
  type NormalizedConfig,
  normalizeConfig,
  type SeedArticle,
  SeedArticleSchema,
} from './config/config.js';
import { BODY_METHODS, MAX_BODY_BYTES } from './config/limits.js';
import { createLiveState, type LiveData } from './data/live-state.js';
import { requestHeader } from './http/request-header.js';
import { respond } from './http/respond.js';
import type { GuardEnv, Transport } from './http/transport.js';
import type { OperationContext } from './operations/context.js';
import { type AnyOutcome, fail, invalid } from './operations/outcome.js';
import { type ApiEnv, createApiRoutes } from './routes/api.js';
import { registerStubs } from './routes/apply-stub.js';
import { createCheckoutPage } from './routes/checkout-page.js';
import { createControlRoutes } from './routes/control.js';
import { registerDashboard } from './routes/dashboard.js';
import { createFastLane, type PlainRequest } from './routes/fast-lane.js';
import { createGuard, createHostChecks } from './routes/guard.js';
import { registerFaults } from './routes/inject-faults.js';
import { wrongMethod } from './routes/methods.js';
import { type BodyExcerpt, createBodyExcerpts } from './rules/body-excerpt.js';
import { ConfigError, describeIssues } from './rules/config-error.js';
import { flatIds } from './rules/flat-ids.js';
import { JOURNAL_FILTERS, type JournalEntry, type JournalQuery } from './rules/journal.js';
import { checkKnownKeys } from './rules/known-keys.js';
import type { PayResult } from './rules/money/checkout.js';
import { createPageTokens } from './rules/money/page-tokens.js';
import { type FaultsConfig, parseFaults } from './rules/request/faults.js';
import { createRequestIds, startTag } from './rules/request/request-ids.js';
import { registerStub, type StubHandle, type StubInput, type StubView } from './rules/request/stubs.js';
import { type LedgerReport, ledgerReport, type StatsReport, statsReport } from './state/inspection.js';
import {
  countRequests,
  REQUEST_COUNT_FILTERS,
  type RequestCount,
  type RequestCountQuery,
} from './state/request-count.js';
import { type MockState, seedArticle } from './state/state.js';

export { MAX_BODY_BYTES };

export interface MockServiceOptions {
  /**
   * The clock's time source. By default `Date.now()`, read at every use: a test runner's fake
   * timers (`vi.useFakeTimers()`) move the mock's clock, even for a service made before they
   * were turned on.
   */
  now?: () => number;
  /** Makes every id (jobs, articles, checkouts); random UUIDs by default. Pass a seeded one for replayable runs. */
  newId?: () => string;
  /**
   * Hears of the mock's own errors: an event on the clock that threw (its job failed and was
   * refunded) or a request answered 500. Silent by default; the bin writes them to stderr.
   */
  onError?: (error: unknown) => void;
}

/** What the service needs of a data folder. */
interface DurableData extends LiveData {
  /** Resolves once every change recorded so far is on disk; undefined when it already is. */
  whenDurable(): Promise<void> | undefined;
}

/**
 * The options node.ts passes: also the state's home across restarts (it opens `dataDir` with
 * data/folder.ts). The state starts from it, each change is recorded in it, and every answer
 * waits until what it shows is on disk. Not public: a data folder is opened by
 * startMockServer, which owns its lock and its closing.
 */
export interface ServiceOptionsWithData extends MockServiceOptions {
  data?: DurableData | undefined;
}

export interface MockService {
  /**
   * Answers one request. `transport.listenHost` (the HTTP server's address) turns on the
   * Host and Origin checks; msw and tests in process leave it out.
   */
  handle(request: Request, transport?: Transport): Promise<Response>;
  readonly config: NormalizedConfig;
  /** Back to the configured start state, the clock included. */
  reset(): void;
  /** Throws RangeError, moving nothing, past the latest time the clock keeps (MAX_CLOCK_MS). */
  advanceClock(ms: number): void;
  now(): number;
  completeCheckout(sessionId: string): PayResult;
  balance(accountId: string): number;
  /** The request journal, newest first, filtered as `GET /_mock/requests` filters it. */
  journal(query?: JournalQuery): JournalEntry[];
  /** The credit ledger, as `GET /_mock/ledger` shows it. */
  ledger(): LedgerReport;
  /** Structure sizes and counters, as `GET /_mock/stats` shows them. */
  stats(): StatsReport;
  /**
   * How many `/api/v1` requests match every filter given (`GET /_mock/requests/count`): exact since
   * the start or the last reset for `account`, `method`, `route`, `status` and `idempotencyKey`;
   * with `path`, `requestId` or `since`, over the journal's last 1,000 (`window: "journal"`).
   * Throws ConfigError for a `route` that is not one of the interface's.
   */
  countRequests(query?: RequestCountQuery): RequestCount;
  /**
   * Makes the article of a profile that has none, at no charge (`POST /_mock/articles`): the
   * fields given, the others generated. Returns the stored Article. Throws ConfigError naming
   * the field at fault, or an Error when the profile has an article or a job under way.
   */
  seedArticle(seed: SeedArticle): Article;
  /** Replaces the fault rules (`PUT /_mock/faults`); throws ConfigError naming the field at fault. */
  setFaults(faults: FaultsConfig): void;
  /** The live state, for tests that look behind the HTTP surface. */
  state(): MockState;
  /** Registers an outcome stub (`POST /_mock/stubs`); throws ConfigError naming the field at fault. */
  stub(stub: StubInput): StubHandle;
  /** The registered stubs, newest first (`GET /_mock/stubs`). */
  stubs(): StubView[];
  /** Removes every stub (`DELETE /_mock/stubs`). */
  clearStubs(): void;
}

interface Lane {
  answer: (req: PlainRequest) => AnyOutcome | undefined;
  /** Off only in tests that compare the lane's answers with the router's. */
  enabled: boolean;
  /** The service's request ids, which the node adapter takes for the answers it writes itself. */
  nextRequestId: () => string;
}
const lanes = new WeakMap<MockService, Lane>();

/** The service's fast lane (routes/fast-lane.ts), for the node adapter; undefined when it has none. */
export function fastLaneOf(
  service: MockService,
): ((req: PlainRequest) => AnyOutcome | undefined) | undefined {
  const lane = lanes.get(service);
  return lane && ((req) => (lane.enabled ? lane.answer(req) : undefined));
}

/**
 * The service's request ids, for the answers the node adapter writes itself. A service that
 * wraps another (a test's proxy) numbers its own answers; the adapter's then have a prefix
 * of their own, so the two sequences never give the same id.
 */
export function requestIdsOf(service: MockService): () => string {
  return lanes.get(service)?.nextRequestId ?? createRequestIds('req_node_');
}

/** Turns a service's fast lane off or on: a test then sees the router's answer to the same request. */
export function useFastLane(service: MockService, enabled: boolean): void {
  const lane = lanes.get(service);
  if (lane) lane.enabled = enabled;
}

/** `config` may be a user's config or an already normalised one: normalising is idempotent. */
export function createMockService(
  config: MockConfig | NormalizedConfig = {},
  options: MockServiceOptions = {},
): MockService {
  const { data } = options as ServiceOptionsWithData;
  const normalized = normalizeConfig(config);
  const onError = options.onError ?? (() => {});
  const live = createLiveState(normalized, {
    now: options.now,
    newId: flatIds(options.newId ?? randomUUID),
    onError,
    data,
  });
  const completeCheckout = (sessionId: string) => live.state.checkouts.pay(sessionId, live.now());
  // With --data the ids of this start must differ from those an earlier start gave.
  const nextRequestId = createRequestIds(data ? `req_${startTag()}_` : 'req_');

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    // The rest of the body is never read, so the connection cannot be reused.
    onError: (c) =>
      respond(
        fail(413, `Request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`, { connection: 'close' }),
        (c.env as GuardEnv['Bindings']).requestId,
      ),
  });
  const hostChecks = createHostChecks(normalized.allowHosts);
  // Bodies are kept only when asked for: off, the journal costs the hot path nothing more.
  const secrets = [
    ...normalized.accounts.flatMap((account) => account.apiKeys),
    ...(normalized.adminToken === undefined ? [] : [normalized.adminToken]),
  ];
  const excerpt = normalized.journal.bodies ? createBodyExcerpts(secrets) : undefined;
  const lane = createFastLane(live, hostChecks, onError, excerpt);
  const app = new Hono<ApiEnv>();
  app.use('*', createGuard(hostChecks));
  // Hono answers HEAD with the GET handler, which would charge a read: a safe method must
  // never move money, and no route of the interface takes HEAD, so it is 405 everywhere.
  app.use('*', async (c, next) => {
    if (c.req.method === 'HEAD') return respond(wrongMethod(app.routes, 'HEAD', c.req.path), c.env.requestId);
    await next();
  });
  // Only where a body is read: touching the body of a GET would make @hono/node-server
  // build a full WHATWG Request, which costs more than the rest of the request.
  app.on([...BODY_METHODS], '*', async (c, next) => {
    // A body the transport read whole has passed its limit already.
    if (c.env?.body !== undefined) return next();
    return limitBody(c, next);
  });
  app.use(`${API_PREFIX}/*`, async (c, next) => {
    await next();
    // Unset when the request was refused before auth passed (401).
    const ctx = c.get('ctx') as OperationContext | undefined;
    live.state.journal.record({
      at: live.clock.now(),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      accountId: ctx?.account.id ?? null,
      idempotencyKey: requestHeader(c, 'idempotency-key') ?? null,
      requestId: c.env.requestId,
      ...(c.get('stubId') === undefined ? {} : { stubId: c.get('stubId') }),
      ...(excerpt && (await journalBodies(c, excerpt))),
    });
  });
  // After the journal, so it records stubbed and faulted answers too. Stubs first: they
  // authorise the request themselves when one may match (routes/apply-stub.ts); a fault
  // answers before auth, so one that answers early has no effect at all.
  registerStubs(app, live);
  registerFaults(app, live);
  app.route(API_PREFIX, createApiRoutes(live));
  // Before the control routes: the page and its files load without the admin token.
  registerDashboard(app);
  app.route('/_mock', createControlRoutes(live, normalized.adminToken, secrets));
  app.route(
    '/checkout',
    createCheckoutPage({
      session: (id) => live.current().checkouts.get(id),
      pay: completeCheckout,
      tokens: createPageTokens(),
    }),
  );
  // Someone opening the mock's address in a browser or with curl learns what it is.
  app.get('/', (c) =>
    c.json(
      {
        service: 'Profile Article Service mock server',
        api: API_PREFIX,
        docs: 'profile-articles help mock (with @profile-articles/cli), and the README of @profile-articles/mock-server on npm',
      },
      200,
      { 'x-request-id': c.env.requestId },
    ),
  );
  app.notFound((c) => respond(wrongMethod(app.routes, c.req.method, c.req.path), c.env.requestId));
  app.onError((error, c) => {
    // Hono decodes path parameters lazily; bad percent-encoding is the client's mistake.
    if (error instanceof URIError) {
      return respond(
        invalid([{ loc: ['path'], msg: 'Malformed percent-encoding in the URL', type: 'url_parsing' }]),
        c.env.requestId,
      );
    }
    onError(error);
    return respond(fail(500, 'Internal mock server error'), c.env.requestId);
  });

  const entry = { enabled: true, nextRequestId };
  const answer = async (request: Request, transport: Transport, requestId: string): Promise<Response> => {
    // In process and through msw (no listening address): the lane takes what it can.
    if (transport.listenHost === undefined && entry.enabled) {
      const outcome = lane(plainRequest(request, transport, requestId));
      if (outcome) return respond(outcome, requestId);
    }
    return app.fetch(request, { ...transport, requestId });
  };
  const service: MockService = {
    handle: (request, transport = {}) => {
      // One id per request, whichever way it is answered: an adapter may have chosen it.
      const requestId = transport.requestId ?? nextRequestId();
      const answered = answer(request, transport, requestId);
      if (!data) return answered;
      // With --data nothing is answered before what it shows is on disk.
      return answered.then((response) => {
        const durable = data.whenDurable();
        return durable
          ? durable.then(
              () => response,
              (error: Error) => respond(notSaved(error), requestId),
            )
          : response;
      });
    },
    config: normalized,
    reset: live.reset,
    advanceClock: live.advance,
    now: live.now,
    completeCheckout,
    balance: (accountId) => live.current().ledger.balance(accountId),
    journal: (query) => {
      checkKnownKeys(query, JOURNAL_FILTERS, 'journal query');
      return live.state.journal.entries(query);
    },
    ledger: () => ledgerReport(live.current()),
    stats: () => statsReport(live.current(), live.clock.now()),
    setFaults: (faults) => live.state.faults.set(parseFaults(faults, 'faults')),
    countRequests: (query = {}) => {
      checkKnownKeys(query, REQUEST_COUNT_FILTERS, 'request count query');
      return countRequests(live.state, query, live.clock.now());
    },
    seedArticle: (seed) => {
      const parsed = SeedArticleSchema.safeParse(seed);
      if (!parsed.success)
        throw new ConfigError(
          `Invalid seeded article: ${describeIssues(parsed.error.issues, ['seedArticle'])}`,
        );
      const seeded = seedArticle(live.current(), parsed.data, live.now());
      if (!seeded.ok) throw new Error(seeded.detail);
      return seeded.article;
    },
    state: () => live.state,
    stub: (stub) => registerStub(live.state.stubs, stub),
    stubs: () => live.state.stubs.list(),
    clearStubs: () => live.state.stubs.clear(),
  };
  lanes.set(service, Object.assign(entry, { answer: lane }));
  if (data) durables.set(service, () => data.whenDurable());
  return service;
}

/** The request's and the answer's bodies as the journal keeps them (config `journal.bodies`). */
async function journalBodies(c: Context<ApiEnv>, excerpt: (text: string | undefined) => BodyExcerpt | null) {
  // Hono keeps the body text a route read; a body refused unread (413) or never sent is none.
  let request: string | undefined = c.env.body;
  if (request === undefined && BODY_METHODS.has(c.req.method))
    request = await c.req.text().catch(() => undefined);
  // A dropped connection (a reset fault) has no answer to read.
  // A body a stub or fault shaped is journaled as sent (a trickle is not read twice).
  const response =
    c.res.type === 'error'
      ? undefined
      : (c.get('sentBody') ??
        (await c.res
          .clone()
          .text()
          .catch(() => undefined)));
  return { requestBody: excerpt(request), responseBody: excerpt(response) };
}

/**
 * The answer when the data folder could not keep a request's changes: 500, which a client
 * retries (503 on checkout means payments are not configured). `error` names the folder and
 * the error code; the changes have been undone (data/folder.ts).
 */
export const notSaved = (error: Error) => fail(500, error.message);

const durables = new WeakMap<MockService, () => Promise<void> | undefined>();

/** With --data: what the node adapter waits for before it writes an answer of its own. */
export function durabilityOf(service: MockService): (() => Promise<void> | undefined) | undefined {
  return durables.get(service);
}

/** The path of an absolute URL, without its query: what Hono's router matches. */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start < 0) return '/';
  const end = url.indexOf('?', start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

function plainRequest(request: Request, transport: Transport, requestId: string): PlainRequest {
  return {
    requestId,
    method: request.method,
    path: pathOf(request.url),
    header: transport.header ?? ((name) => request.headers.get(name) ?? undefined),
    body: transport.body,
    origin: () => new URL(request.url).origin,
  };
}
