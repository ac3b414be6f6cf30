// How many /api/v1 requests the mock was sent, by account, method, route, status and
// Idempotency-Key, since the start or the last reset (`GET /_mock/requests/count`,
// `service.countRequests`). The journal keeps only the last 1,000 requests, so these are
// counters: every combination of the first four is one number (accounts × 10 methods × 7 routes
// × statuses: a few hundred at most, whatever the traffic), so any combination of filters is
// exact. A key is counted per account for as long as the mock keeps an Idempotency-Key (24 hours
// of its clock after the key's first request), then forgotten; a key seen once costs one map
// entry holding a small integer, so the memory goal per generation holds (bench/mock-memory.mjs).
import { API_PREFIX, ENDPOINTS } from '@profile-articles/sdk/internal';
import type { JournalRecord } from '../journal.js';
import { FAULT_ROUTES, type FaultRoute } from './faults.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency.js';

/** The methods counted one by one; any other is counted apart, and asked for from the journal. */
export const COUNTED_METHODS = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'CONNECT',
];
const OTHER_METHOD = COUNTED_METHODS.length;
const METHODS = COUNTED_METHODS.length + 1;
const ROUTES = FAULT_ROUTES.length + 1; // 0: no route of the interface
const STATUSES = 1000;

/** The filters the counters answer exactly. */
export interface CountFilters {
  account?: string;
  method?: string;
  route?: FaultRoute;
  status?: number;
  idempotencyKey?: string;
}

export interface RequestCounts {
  /** Counts one journaled request. */
  add(entry: JournalRecord): void;
  /** Requests matching every filter given; `now` forgets keys past their lifetime first. */
  count(filters: CountFilters, now: number): number;
  /** Keys counted now, over every account: what the memory holds beyond the combinations. */
  readonly keys: number;
}

const SEGMENTS = Object.values(ENDPOINTS).map((endpoint) => ({
  method: endpoint.method as string,
  /** Each segment of the template: its literal text, or undefined for a `{parameter}`. */
  parts: endpoint.path
    .split('/')
    .slice(1)
    .map((part) => (part.startsWith('{') ? undefined : part)),
}));

/**
 * The route of the interface a request's method and path are (1 + its index in FAULT_ROUTES),
 * 0 for none: what Hono's router would match, without the router. Run for every request, so it
 * walks the path in place rather than splitting it.
 */
function routeIndex(method: string, path: string): number {
  const base = API_PREFIX.length;
  if (!path.startsWith(API_PREFIX) || path.charCodeAt(base) !== 47) return 0;
  next: for (let i = 0; i < SEGMENTS.length; i++) {
    const { method: wanted, parts } = SEGMENTS[i]!;
    if (wanted !== method) continue;
    let at = base + 1;
    for (let j = 0; j < parts.length; j++) {
      const slash = path.indexOf('/', at);
      // Every segment but the last ends at a slash, the last at the path's end.
      if (j < parts.length - 1 ? slash < 0 : slash >= 0) continue next;
      const stop = slash < 0 ? path.length : slash;
      const part = parts[j];
      if (part === undefined ? stop === at : stop - at !== part.length || !path.startsWith(part, at))
        continue next;
      at = stop + 1;
    }
    return i + 1;
  }
  return 0;
}

/** The route a journal entry went to, named as the fault rules name it; undefined for none. */
export function routeOf(method: string, path: string): FaultRoute | undefined {
  const index = routeIndex(method, path);
  return index === 0 ? undefined : FAULT_ROUTES[index - 1];
}

const methodIndex = (method: string) => {
  const index = COUNTED_METHODS.indexOf(method);
  return index < 0 ? OTHER_METHOD : index;
};

interface AccountKeys {
  /** Key → the combination of its only request, or [combination, count, ...] once it has more. */
  counts: Map<string, number | number[]>;
  /** Keys in the order of their first request, with its time: the oldest expire first. */
  order: string[];
  times: number[];
  head: number;
}

/** `accountIds` are the configured accounts: a request of none (a 401) is counted as account 0. */
export function createRequestCounts(accountIds: readonly string[]): RequestCounts {
  const accountIndex = new Map(accountIds.map((id, i) => [id, i + 1]));
  /** Combination → requests. */
  const combos = new Map<number, number>();
  const keyed: AccountKeys[] = Array.from({ length: accountIds.length + 1 }, () => ({
    counts: new Map(),
    order: [],
    times: [],
    head: 0,
  }));
  let keys = 0;

  const forget = (account: AccountKeys, now: number) => {
    while (account.head < account.order.length && account.times[account.head]! + IDEMPOTENCY_TTL_MS <= now) {
      account.counts.delete(account.order[account.head]!);
      account.head++;
      keys--;
    }
    // The queue's front is cut off now and then, not on every expiry.
    if (account.head > 1024 && account.head * 2 > account.order.length) {
      account.order.splice(0, account.head);
      account.times.splice(0, account.head);
      account.head = 0;
    }
  };

  return {
    add(entry) {
      const account = entry.accountId === null ? 0 : (accountIndex.get(entry.accountId) ?? 0);
      const route = routeIndex(entry.method, entry.path);
      const status = entry.status >= 0 && entry.status < STATUSES ? entry.status : 0;
      const combo = ((account * METHODS + methodIndex(entry.method)) * ROUTES + route) * STATUSES + status;
      combos.set(combo, (combos.get(combo) ?? 0) + 1);
      const key = entry.idempotencyKey;
      if (key === null) return;
      const own = keyed[account]!;
      forget(own, entry.at);
      const held = own.counts.get(key);
      if (held === undefined) {
        own.counts.set(key, combo);
        own.order.push(key);
        own.times.push(entry.at);
        keys++;
      } else if (typeof held === 'number') {
        own.counts.set(key, held === combo ? [combo, 2] : [held, 1, combo, 1]);
      } else {
        const at = held.findIndex((value, i) => i % 2 === 0 && value === combo);
        if (at < 0) held.push(combo, 1);
        else held[at + 1]!++;
      }
    },
    count(filters, now) {
      const account =
        filters.account === undefined ? undefined : (accountIndex.get(filters.account) ?? Number.NaN);
      if (Number.isNaN(account)) return 0;
      const method = filters.method === undefined ? undefined : methodIndex(filters.method.toUpperCase());
      const route = filters.route === undefined ? undefined : FAULT_ROUTES.indexOf(filters.route) + 1;
      const matches = (combo: number) => {
        const status = combo % STATUSES;
        const rest = (combo - status) / STATUSES;
        const r = rest % ROUTES;
        const rest2 = (rest - r) / ROUTES;
        const m = rest2 % METHODS;
        const a = (rest2 - m) / METHODS;
        return (
          (filters.status === undefined || status === filters.status) &&
          (route === undefined || r === route) &&
          (method === undefined || m === method) &&
          (account === undefined || a === account)
        );
      };
      let total = 0;
      if (filters.idempotencyKey === undefined) {
        for (const [combo, n] of combos) if (matches(combo)) total += n;
        return total;
      }
      const accounts = account === undefined ? keyed : [keyed[account]!];
      for (const own of accounts) {
        forget(own, now);
        const held = own.counts.get(filters.idempotencyKey);
        if (held === undefined) continue;
        if (typeof held === 'number') total += matches(held) ? 1 : 0;
        else for (let i = 0; i < held.length; i += 2) if (matches(held[i]!)) total += held[i + 1]!;
      }
      return total;
    },
    get keys() {
      return keys;
    },
  };
}
