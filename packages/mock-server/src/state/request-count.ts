// `GET /_mock/requests/count` and `service.countRequests(query)`: the counters
// (rules/request/request-counts.ts) for the filters they keep, the journal's last 1,000 requests
// for the others (`path`, `request_id`, `since`, or a method outside the nine of HTTP), and
// then the answer says so.
import { ConfigError } from '../rules/config-error.js';
import { MAX_JOURNAL_ENTRIES } from '../rules/journal.js';
import { FAULT_ROUTES, type FaultRoute } from '../rules/request/faults.js';
import { COUNTED_METHODS, routeOf } from '../rules/request/request-counts.js';
import type { MockState } from './state.js';

/** Filters of `service.countRequests`; every one given must hold. */
export interface RequestCountQuery {
  /** Account id. */
  account?: string;
  /** HTTP method, any case. */
  method?: string;
  /** A route of the interface, as the fault rules name it (`POST /api/v1/articles`). */
  route?: FaultRoute;
  status?: number;
  idempotencyKey?: string;
  /** A prefix of the path: counted over the journal's last 1,000 requests. */
  path?: string;
  /** Counted over the journal's last 1,000 requests. */
  requestId?: string;
  /** At or after this time of the mock's clock (ms since the epoch): over the journal's last 1,000. */
  since?: number;
}

/** Every key of RequestCountQuery, for a filter object given in process (rules/known-keys.ts). */
export const REQUEST_COUNT_FILTERS = [
  'account',
  'method',
  'route',
  'status',
  'idempotencyKey',
  'path',
  'requestId',
  'since',
] as const satisfies readonly (keyof RequestCountQuery)[];

/** Exact since the start or the last reset; `window: "journal"` when counted over the journal's last 1,000. */
export type RequestCount = { count: number } | { count: number; window: 'journal' };

export const ROUTE_ERROR = `Input should be one of: ${FAULT_ROUTES.join(', ')}`;

export const isRoute = (value: string): value is FaultRoute =>
  (FAULT_ROUTES as readonly string[]).includes(value);

export function countRequests(state: MockState, query: RequestCountQuery, now: number): RequestCount {
  if (query.route !== undefined && !isRoute(query.route))
    throw new ConfigError(`Invalid request count query: route: ${ROUTE_ERROR}`);
  const method = query.method?.toUpperCase();
  const fromJournal =
    query.path !== undefined ||
    query.requestId !== undefined ||
    query.since !== undefined ||
    (method !== undefined && !COUNTED_METHODS.includes(method));
  if (!fromJournal) return { count: state.requestCounts.count(query, now) };
  const { route, ...filters } = query;
  const entries = state.journal.entries({ ...filters, limit: MAX_JOURNAL_ENTRIES });
  const count =
    route === undefined ? entries.length : entries.filter((e) => routeOf(e.method, e.path) === route).length;
  return { count, window: 'journal' };
}
