// /_mock: controls for tests. They belong to whoever runs the mock: open by default, behind
// `Authorization: Bearer <adminToken>` when the config sets one.
import { createRedactor } from '@profile-articles/sdk/internal';
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { LiveState } from '../data/live-state.js';
import { type ParamSpec, parseParams, searchParamsOf } from '../http/query-params.js';
import { requestHeader } from '../http/request-header.js';
import { parseJsonBody, respond as respondAs } from '../http/respond.js';
import type { GuardEnv } from '../http/transport.js';
import { type AnyOutcome, fail, invalid, ok } from '../operations/outcome.js';
import { MAX_JOURNAL_ENTRIES } from '../rules/journal.js';
import { bearerToken, matchesSecret } from '../rules/money/accounts.js';
import type { PayResult } from '../rules/money/checkout.js';
import { FaultsConfigSchema } from '../rules/request/faults.js';
import {
  checkoutsReport,
  jobsReport,
  ledgerReport,
  MAX_PAGE_LIMIT,
  statsReport,
} from '../state/inspection.js';
import { eventStream } from './events.js';
import { registerRequestCount, registerSeedArticles } from './seed-and-count.js';
import { registerStubControls } from './stub-controls.js';

const JOURNAL_FILTERS = {
  account: { kind: 'text' },
  method: { kind: 'text' },
  path: { kind: 'text' },
  status: { kind: 'int', max: 599 },
  idempotency_key: { kind: 'text' },
  request_id: { kind: 'text' },
  since: { kind: 'time' },
  limit: { kind: 'int', min: 1, max: MAX_JOURNAL_ENTRIES },
} satisfies ParamSpec;

const PAGE = {
  offset: { kind: 'int' },
  limit: { kind: 'int', min: 1, max: MAX_PAGE_LIMIT },
} satisfies ParamSpec;
const JOBS_QUERY = { ...PAGE, status: { kind: 'text' }, account: { kind: 'text' } } satisfies ParamSpec;
const CHECKOUTS_QUERY = { ...PAGE, status: { kind: 'text' } } satisfies ParamSpec;

const JOBS_VIEW = 'jobs';

const AdvanceSchema = z.strictObject({ ms: z.int().check(z.nonnegative()) });

function payOutcome(result: PayResult, sessionId: string) {
  if (result === 'not-found') return fail(404, 'Checkout session not found');
  return ok({ session_id: sessionId, paid: true, credited: result === 'paid' });
}

function withoutUndefined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}

/**
 * `live` holds the state and clock the controls act on; `adminToken` guards them when set.
 * `secrets` (every configured key and the admin token) are redacted from every answer: a key
 * sent by mistake as a profile id or an Idempotency-Key is kept as sent, never shown.
 */
export function createControlRoutes(
  live: LiveState,
  adminToken: string | undefined,
  secrets: readonly string[] = [],
): Hono<GuardEnv> {
  const control = new Hono<GuardEnv>();
  const redactors = secrets.map(createRedactor);
  const respond = (outcome: AnyOutcome, requestId: string) =>
    respondAs(
      redactors.length
        ? ({ ...outcome, body: redactors.reduce((body, r) => r.json(body), outcome.body) } as AnyOutcome)
        : outcome,
      requestId,
    );

  if (adminToken !== undefined) {
    control.use('*', async (c, next) => {
      const token = bearerToken(requestHeader(c, 'authorization'));
      if (token === undefined || !matchesSecret(token, adminToken))
        return respond(
          fail(401, 'The control endpoints need the admin token', { 'www-authenticate': 'Bearer' }),
          c.env.requestId,
        );
      await next();
    });
  }

  control.post('/reset', (c) => {
    live.reset();
    return respond(ok({ reset: true }), c.env.requestId);
  });

  control.post('/clock/advance', async (c) => {
    const parsed = await parseJsonBody(c, AdvanceSchema);
    if (!parsed.ok) return respond(invalid(parsed.issues), c.env.requestId);
    try {
      live.advance(parsed.data.ms);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      const issue = { loc: ['body', 'ms'], msg: error.message, type: 'less_than_equal' };
      return respond(invalid([issue]), c.env.requestId);
    }
    return respond(ok({ now: new Date(live.now()).toISOString() }), c.env.requestId);
  });

  control.post('/checkout/:session_id/complete', (c) => {
    const sessionId = c.req.param('session_id');
    const paid = live.state.checkouts.pay(sessionId, live.now());
    return respond(payOutcome(paid, sessionId), c.env.requestId);
  });

  control.get('/requests', (c) => {
    const query = parseParams(searchParamsOf(c.req.url), JOURNAL_FILTERS);
    if (!query.ok) return respond(invalid(query.issues), c.env.requestId);
    const { idempotency_key, request_id, ...rest } = query.data;
    const filters = { ...rest, idempotencyKey: idempotency_key, requestId: request_id };
    const requests = live.state.journal.entries(withoutUndefined(filters));
    return respond(ok({ requests }), c.env.requestId);
  });
  control.get('/ledger', (c) => {
    const query = parseParams(searchParamsOf(c.req.url), PAGE);
    if (!query.ok) return respond(invalid(query.issues), c.env.requestId);
    const paged = query.data.offset !== undefined || query.data.limit !== undefined;
    return respond(ok(ledgerReport(live.current(), paged ? query.data : undefined)), c.env.requestId);
  });
  // `/_mock/jobs`, spelt from its name: a literal starting '/jobs' reads as the API's path,
  // which only the contract table spells out (scripts/contract-literals.test.ts).
  control.get(`/${JOBS_VIEW}`, (c) => {
    const query = parseParams(searchParamsOf(c.req.url), JOBS_QUERY);
    if (!query.ok) return respond(invalid(query.issues), c.env.requestId);
    return respond(ok(jobsReport(live.current(), query.data)), c.env.requestId);
  });
  control.get('/checkouts', (c) => {
    const query = parseParams(searchParamsOf(c.req.url), CHECKOUTS_QUERY);
    if (!query.ok) return respond(invalid(query.issues), c.env.requestId);
    const { status } = query.data;
    if (status !== undefined && status !== 'pending' && status !== 'paid') {
      const issue = { loc: ['query', 'status'], msg: "Input should be 'pending' or 'paid'", type: 'enum' };
      return respond(invalid([issue]), c.env.requestId);
    }
    return respond(ok(checkoutsReport(live.current(), { ...query.data, status })), c.env.requestId);
  });
  control.get('/stats', (c) => {
    const at = live.now();
    return respond(ok(statsReport(live.state, at)), c.env.requestId);
  });

  control.get('/events', (c) => eventStream(live, c.env.requestId));

  registerStubControls(control, live, respond);
  // Counting requests and seeding articles (routes/seed-and-count.ts).
  registerRequestCount(control, live, respond);
  registerSeedArticles(control, live, respond);

  control.get('/faults', (c) => respond(ok(live.state.faults.config()), c.env.requestId));
  control.put('/faults', async (c) => {
    const parsed = await parseJsonBody(c, FaultsConfigSchema);
    if (!parsed.ok) return respond(invalid(parsed.issues), c.env.requestId);
    live.state.faults.set(parsed.data);
    return respond(ok(live.state.faults.config()), c.env.requestId);
  });
  control.delete('/faults', (c) => {
    live.state.faults.set(FaultsConfigSchema.parse({}));
    return respond(ok(live.state.faults.config()), c.env.requestId);
  });

  return control;
}
