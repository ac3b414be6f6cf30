// Outcome stubs: "the next request that matches answers this way". This module checks a stub,
// keeps the registered ones and picks the one a request meets (priority, then newest), counting
// its `times` down; it knows nothing of HTTP. routes/apply-stub.ts applies the outcome, by the
// mock's own rules (a stubbed status has no effect, a failing job reserves and refunds).
import { ENDPOINTS, type EndpointName } from '@profile-articles/sdk/internal';
import * as z from 'zod/mini';
import { ConfigError } from '../config-error.js';
import { FAULT_ROUTES, type FaultRoute } from './faults.js';

/** The route names a stub's `match.route` takes, as the fault rules spell them. */
const ROUTE_NAMES = Object.fromEntries(
  (Object.keys(ENDPOINTS) as EndpointName[]).map((name, i) => [FAULT_ROUTES[i], name]),
) as Record<FaultRoute, EndpointName>;

/** The table entries whose requests start a job: the only ones a `job` outcome fits. */
const JOB_ROUTES = new Set<EndpointName>(['generateArticle', 'updateArticle']);

/** A 5xx is listed for every route by the interface's last error row. */
const SERVER_FAILURE = 500;

/** The statuses a stub may answer on `route`: those the table lists for it, and 500. */
export function stubStatuses(route: FaultRoute | undefined): number[] {
  const lists: (readonly number[])[] = route
    ? [ENDPOINTS[ROUTE_NAMES[route]].errors]
    : Object.values(ENDPOINTS).map((endpoint) => endpoint.errors);
  const common = (lists[0] ?? []).filter((status) => lists.every((list) => list.includes(status)));
  return [...new Set([...common, SERVER_FAILURE])].sort((a, b) => a - b);
}

/** The contract's words for each error status (its "Errors" table), when a stub gives none. */
const CONTRACT_TEXT: Record<number, string> = {
  400: 'Credit purchase outside the allowed range',
  401: 'Missing or invalid API key',
  402: 'Insufficient credits',
  404: 'Profile or job not found, unavailable or inaccessible',
  409: 'Another job is active for this profile, or the idempotency key was used for a different profile or operation',
  422: 'Invalid request',
  429: 'Rate limit exceeded',
  500: 'Server-side failure',
  502: 'Checkout unavailable',
  503: 'Payments not configured',
};

export const contractText = (status: number) => CONTRACT_TEXT[status] ?? 'Server-side failure';

const MatchSchema = z.strictObject({
  route: z.optional(z.enum(FAULT_ROUTES)),
  profileId: z.optional(z.string().check(z.minLength(1))),
  account: z.optional(z.string().check(z.minLength(1))),
  idempotencyKey: z.optional(z.string().check(z.minLength(1))),
});

const ms = z.int().check(z.gte(0), z.lte(24 * 60 * 60_000));

const OutcomeSchema = z.union([
  z.strictObject({
    status: z.int(),
    detail: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
    retryAfterSeconds: z.optional(z.int().check(z.gte(0), z.lte(3600))),
  }),
  z.strictObject({
    job: z.union([z.literal('fails'), z.literal('stuck'), z.strictObject({ queuedMs: ms, runningMs: ms })]),
    error: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
  }),
  z.strictObject({ lost: z.literal(true) }),
  z.strictObject({ reset: z.enum(['before', 'after']) }),
  z.strictObject({ latencyMs: z.int().check(z.gte(1), z.lte(60_000)) }),
  z.strictObject({
    body: z.literal('trickle'),
    bytesPerSecond: z.int().check(z.gte(1), z.lte(10_000_000)),
  }),
  z.strictObject({ body: z.enum(['malformed', 'empty']) }),
]);

export const StubInputSchema = z.strictObject({
  match: z._default(MatchSchema, {}),
  outcome: OutcomeSchema,
  times: z._default(z.nullable(z.int().check(z.gte(1), z.lte(1_000_000))), 1),
  priority: z._default(z.int().check(z.gte(-1000), z.lte(1000)), 0),
});

export type StubInput = z.input<typeof StubInputSchema>;
export type StubMatch = z.infer<typeof MatchSchema>;
export type StubOutcome = z.infer<typeof OutcomeSchema>;
/** A stub as checked, its defaults filled in. */
export type NormalizedStub = z.infer<typeof StubInputSchema>;

/** One problem of a stub, as a 422's `detail` entry names it (under `body`). */
interface StubIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** What the checks past the schema find: a status the route does not list, a job outside a job's route. */
function ruleIssues(stub: NormalizedStub): StubIssue[] {
  const { outcome, match } = stub;
  if ('status' in outcome) {
    const allowed = stubStatuses(match.route);
    if (allowed.includes(outcome.status)) return [];
    const where = match.route ? `on ${match.route}` : 'without match.route';
    return [
      {
        loc: ['body', 'outcome', 'status'],
        msg: `A stub ${where} may answer only ${allowed.join(', ')}: the statuses the interface lists there`,
        type: 'status_not_listed',
      },
    ];
  }
  if ('error' in outcome && outcome.job !== 'fails')
    return [
      {
        loc: ['body', 'outcome', 'error'],
        msg: 'Only a failing job takes an error',
        type: 'extra_forbidden',
      },
    ];
  if ('job' in outcome && !(match.route && JOB_ROUTES.has(ROUTE_NAMES[match.route])))
    return [
      {
        loc: ['body', 'match', 'route'],
        msg: 'A job outcome needs match.route to be one that starts a job (generate or update)',
        type: 'job_route',
      },
    ];
  return [];
}

/**
 * Checks a stub: the checked stub, or every problem found, each `loc` under `body` as the
 * control endpoints name them.
 */
export function checkStub(
  input: unknown,
): { ok: true; stub: NormalizedStub } | { ok: false; issues: StubIssue[] } {
  const parsed = StubInputSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) => ({
        loc: ['body', ...issue.path.map((part) => (typeof part === 'number' ? part : String(part)))],
        msg: issue.message,
        type: issue.code === 'invalid_type' && issue.input === undefined ? 'missing' : issue.code,
      })),
    };
  }
  const issues = ruleIssues(parsed.data);
  return issues.length ? { ok: false, issues } : { ok: true, stub: parsed.data };
}

/** A registered stub as the control endpoints show it. */
export interface StubView {
  id: string;
  match: StubMatch;
  outcome: StubOutcome;
  /** How many more requests it answers; null for every one. */
  times: number | null;
  priority: number;
  matched: number;
}

interface Stub extends StubView {
  /** Registration order: among equal priorities the newest wins. */
  order: number;
}

/** What is known of a request before its key is checked: enough to rule most stubs out. */
export interface StubProbe {
  route: FaultRoute;
  /** The profile the request names, when it names one; read only when a stub asks. */
  profileId(): string | undefined;
  idempotencyKey: string | undefined;
  /**
   * The request's Idempotency-Key was used before by its account (a replay, or a mismatch's
   * 409): the service answers it before any rule, so no stubbed status or job applies to it.
   * A client may take a refusal for a key to mean that the key did nothing; a stub that
   * refused a replay would make the mock say what the service never does.
   */
  keyAnswers?: boolean;
}

/** The operation a keyed route starts, for looking its key up; undefined for the others. */
export const keyedOperation = (route: FaultRoute): 'generate' | 'update' | undefined =>
  ROUTE_NAMES[route] === 'generateArticle'
    ? 'generate'
    : ROUTE_NAMES[route] === 'updateArticle'
      ? 'update'
      : undefined;

/** Whether a request's profile is in its body (a generate's): the only route a probe reads it from. */
export const profileInBody = (route: FaultRoute) => keyedOperation(route) === 'generate';

/** The one route by its table name, as a stub's `match.route` spells it. */
export const stubRouteOf = (name: EndpointName): FaultRoute =>
  FAULT_ROUTES[(Object.keys(ENDPOINTS) as EndpointName[]).indexOf(name)] as FaultRoute;

/** Where a request's profile id is found, read only when a stub asks (and then once). */
interface ProfileSources {
  param(name: string): string | undefined;
  /** The body's text, for a generate. */
  body: string | undefined;
  /** The profile of a job (GET of a job names the job, not the profile). */
  jobProfile(jobId: string): string | undefined;
}

// The last generate body read and its profile: a client that retries or replays sends the same
// body again, and parsing it for every request with stubs registered cost the hot path.
let lastBody: string | undefined;
let lastBodyProfile: string | undefined;

function bodyProfile(text: string): string | undefined {
  if (text === lastBody) return lastBodyProfile;
  let profileId: string | undefined;
  try {
    const body = JSON.parse(text) as { profile_id?: unknown } | null;
    profileId = typeof body?.profile_id === 'string' ? body.profile_id : undefined;
  } catch {}
  // Kept only when short (a generate's body is), so the memo holds no large text.
  if (text.length <= 512) {
    lastBody = text;
    lastBodyProfile = profileId;
  }
  return profileId;
}

export function stubProbeProfile(route: FaultRoute, from: ProfileSources): () => string | undefined {
  let read = false;
  let profileId: string | undefined;
  return () => {
    if (read) return profileId;
    read = true;
    const name = ROUTE_NAMES[route];
    if (name === 'generateArticle') profileId = bodyProfile(from.body ?? '');
    else if (name === 'getJob') {
      const jobId = from.param('job_id');
      profileId = jobId === undefined ? undefined : from.jobProfile(jobId);
    } else if (ENDPOINTS[name].path.includes('{profile_id}')) profileId = from.param('profile_id');
    return profileId;
  };
}

export interface Stubs {
  /** The stub as shown, and its count of matched requests (kept once the stub is gone). */
  add(stub: NormalizedStub): { view: StubView; matched: () => number };
  /** Newest first. */
  list(): StubView[];
  get(id: string): StubView | undefined;
  remove(id: string): boolean;
  clear(): void;
  /**
   * Whether some stub could match the request: from the account given (a lookup of its key,
   * which takes no slot of its rate window), or from any account when none is.
   */
  mayMatch(probe: StubProbe, accountId?: string): boolean;
  /** The stub the request meets now, if any; counts it and uses one of its `times`. */
  take(probe: StubProbe, accountId: string): StubView | undefined;
  readonly active: number;
  /** Requests answered by a stub since the start or the last reset. */
  readonly matched: number;
}

const view = ({ order: _order, ...stub }: Stub): StubView => ({
  ...stub,
  match: { ...stub.match },
  outcome: { ...stub.outcome } as StubOutcome,
});

export function createStubs(): Stubs {
  const all = new Map<string, Stub>();
  // Stubs per route, and those for any route: a request looks only at its own route's.
  const byRoute = new Map<FaultRoute | undefined, Stub[]>();
  let order = 0;
  let matched = 0;

  const fits = (stub: Stub, probe: StubProbe, accountId: string | undefined) => {
    const { match } = stub;
    return (
      (match.idempotencyKey === undefined || match.idempotencyKey === probe.idempotencyKey) &&
      (accountId === undefined || match.account === undefined || match.account === accountId) &&
      (match.profileId === undefined || match.profileId === probe.profileId()) &&
      !(probe.keyAnswers && ('status' in stub.outcome || 'job' in stub.outcome))
    );
  };
  const drop = (stub: Stub) => {
    all.delete(stub.id);
    const list = byRoute.get(stub.match.route);
    const at = list?.indexOf(stub) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
    if (list?.length === 0) byRoute.delete(stub.match.route);
  };
  /** The best fitting stub: the highest priority, the newest among equals. */
  const best = (probe: StubProbe, accountId: string | undefined) => {
    let found: Stub | undefined;
    for (const list of [byRoute.get(probe.route), byRoute.get(undefined)]) {
      if (!list) continue;
      for (const stub of list) {
        if (
          found &&
          (stub.priority < found.priority || (stub.priority === found.priority && stub.order < found.order))
        )
          continue;
        if (fits(stub, probe, accountId)) found = stub;
      }
    }
    return found;
  };

  return {
    add(checked) {
      order++;
      const stub: Stub = {
        id: `stub_${order}`,
        match: checked.match,
        outcome: checked.outcome,
        times: checked.times,
        priority: checked.priority,
        matched: 0,
        order,
      };
      all.set(stub.id, stub);
      const list = byRoute.get(stub.match.route) ?? [];
      byRoute.set(stub.match.route, list);
      list.push(stub);
      return { view: view(stub), matched: () => stub.matched };
    },
    list: () => [...all.values()].reverse().map(view),
    get: (id) => {
      const stub = all.get(id);
      return stub && view(stub);
    },
    remove(id) {
      const stub = all.get(id);
      if (stub) drop(stub);
      return stub !== undefined;
    },
    clear() {
      all.clear();
      byRoute.clear();
    },
    mayMatch(probe, accountId) {
      return all.size > 0 && best(probe, accountId) !== undefined;
    },
    take(probe, accountId) {
      if (all.size === 0) return undefined;
      const stub = best(probe, accountId);
      if (!stub) return undefined;
      stub.matched++;
      matched++;
      if (stub.times !== null) {
        stub.times--;
        // A stub that answered its `times` is gone.
        if (stub.times === 0) drop(stub);
      }
      return view(stub);
    },
    get active() {
      return all.size;
    },
    get matched() {
      return matched;
    },
  };
}

/** What `service.stub()` returns: the stub's id, its count of matched requests, and its removal. */
export interface StubHandle {
  readonly id: string;
  matched(): number;
  remove(): void;
}

/** Registers a stub given in process; throws ConfigError naming each field at fault. */
export function registerStub(stubs: Stubs, input: StubInput): StubHandle {
  const checked = checkStub(input);
  if (!checked.ok) {
    const problems = checked.issues.map((issue) => `${issue.loc.slice(1).join('.')}: ${issue.msg}`);
    throw new ConfigError(`Invalid stub: ${problems.join('; ')}`);
  }
  const { view: added, matched } = stubs.add(checked.stub);
  return { id: added.id, matched, remove: () => void stubs.remove(added.id) };
}
