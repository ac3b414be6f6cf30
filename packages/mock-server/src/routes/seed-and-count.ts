// Two control endpoints that set up and read a test's state: `POST /_mock/articles` (a seeded
// article, at no charge) and `GET /_mock/requests/count`. Registered by routes/control.ts on
// its router, after its admin-token check, answered through its redacting `respond`.
import type { Hono } from 'hono';
import { SeedArticleSchema } from '../config/config.js';
import type { LiveState } from '../data/live-state.js';
import { type ParamSpec, parseParams, searchParamsOf } from '../http/query-params.js';
import { parseJsonBody } from '../http/respond.js';
import type { GuardEnv } from '../http/transport.js';
import { type AnyOutcome, fail, invalid, ok } from '../operations/outcome.js';
import { countRequests, isRoute, ROUTE_ERROR } from '../state/request-count.js';
import { seedArticle } from '../state/state.js';

const COUNT_FILTERS = {
  account: { kind: 'text' },
  method: { kind: 'text' },
  route: { kind: 'text' },
  status: { kind: 'int', max: 599 },
  idempotency_key: { kind: 'text' },
  path: { kind: 'text' },
  request_id: { kind: 'text' },
  since: { kind: 'time' },
} satisfies ParamSpec;

// `/_mock/articles`, spelt from its name: a literal starting '/articles' reads as the API's path,
// which only the contract table spells out (scripts/contract-literals.test.ts).
const ARTICLES = 'articles';

type Respond = (outcome: AnyOutcome, requestId: string) => Response;

export function registerRequestCount(control: Hono<GuardEnv>, live: LiveState, respond: Respond): void {
  control.get('/requests/count', (c) => {
    const query = parseParams(searchParamsOf(c.req.url), COUNT_FILTERS);
    if (!query.ok) return respond(invalid(query.issues), c.env.requestId);
    const { idempotency_key, request_id, route, ...rest } = query.data;
    if (route !== undefined && !isRoute(route))
      return respond(invalid([{ loc: ['query', 'route'], msg: ROUTE_ERROR, type: 'enum' }]), c.env.requestId);
    const filters = Object.fromEntries(
      Object.entries({ ...rest, route, idempotencyKey: idempotency_key, requestId: request_id }).filter(
        ([, value]) => value !== undefined,
      ),
    );
    return respond(ok(countRequests(live.state, filters, live.clock.now())), c.env.requestId);
  });
}

export function registerSeedArticles(control: Hono<GuardEnv>, live: LiveState, respond: Respond): void {
  control.post(`/${ARTICLES}`, async (c) => {
    const parsed = await parseJsonBody(c, SeedArticleSchema);
    if (!parsed.ok) return respond(invalid(parsed.issues), c.env.requestId);
    const seeded = seedArticle(live.current(), parsed.data, live.now());
    if (!seeded.ok) return respond(fail(409, seeded.detail), c.env.requestId);
    // 201 is no status of the API's table (SuccessStatus), only of this control endpoint.
    const created = { status: 201, body: seeded.article } as unknown as AnyOutcome;
    return respond(created, c.env.requestId);
  });
}
