// The API's everyday requests (a table entry's method on a plain path, no faults drawn, no
// Origin, the body already read whole) answered straight from the rules, with no router, no
// middleware chain and no Request or Response: the router's layers cost more per request
// than the rules themselves. The lane composes the same functions the router's steps call
// (guard, authorize, checkEndpointArgs, runOperation, the journal), in the same order, and
// answers undefined for any request it does not take, which the router then answers: a request
// has one answer whichever way it goes (test/fast-lane.test.ts compares them).
import { API_PREFIX, ENDPOINTS, type EndpointName } from '@profile-articles/sdk/internal';
import type { LiveState } from '../data/live-state.js';
import { checkEndpointArgs } from '../http/endpoint-input.js';
import { type AnyOutcome, fail } from '../operations/outcome.js';
import type { BodyExcerpt } from '../rules/body-excerpt.js';
import { innerMap } from '../rules/inner-map.js';
import { toJsonText } from '../rules/json-text.js';
import type { FaultRoute } from '../rules/request/faults.js';
import { stubProbeProfile, stubRouteOf } from '../rules/request/stubs.js';
import { authorize, runOperation } from './api.js';
import { carriesBody, contentTypeOutcome, hostOutcome } from './guard.js';

/** A request as a transport hands it to the lane. */
export interface PlainRequest {
  /** Its `X-Request-Id`, chosen by the transport: the lane journals it, the transport writes it. */
  requestId: string;
  method: string;
  /** The request target's path, its query left out. */
  path: string;
  header(name: string): string | undefined;
  /** The body, read whole by the transport (JSON within the limit); undefined when it did not. */
  body?: string | undefined;
  /** The HTTP server's address: the Host check applies (see guard.ts). */
  listenHost?: string | undefined;
  /** The request's origin, for the one operation that names a URL on this server. */
  origin(): string;
}

/**
 * Segments made of unreserved characters only, none empty or starting with a dot: such a
 * path reads the same percent-decoded, URL-normalised or not, so the lane's own split gives
 * the router's path and parameters exactly. Anything else goes to the router.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9_.~-]*)+$/;

interface TableRoute {
  name: EndpointName;
  /** The template's segments; a parameter is its name in braces. */
  segments: string[];
}

const ROUTES: TableRoute[] = (Object.keys(ENDPOINTS) as EndpointName[]).map((name) => ({
  name,
  segments: `${API_PREFIX}${ENDPOINTS[name].path}`.split('/'),
}));

/** The table entry for `method` and `path`, with its path parameters. */
function match(
  method: string,
  path: string,
): { name: EndpointName; params: Record<string, string> } | undefined {
  const segments = path.split('/');
  for (const route of ROUTES) {
    if (ENDPOINTS[route.name].method !== method || route.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 1; i < segments.length && matched; i++) {
      const template = route.segments[i] as string;
      const segment = segments[i] as string;
      if (template.startsWith('{')) params[template.slice(1, -1)] = segment;
      else matched = template === segment;
    }
    if (matched) return { name: route.name, params };
  }
  return undefined;
}

const HOSTS_KEPT = 64;
const MATCHES_KEPT = 1024;
// Room for the longest path of the table with a parameter of the longest identifier.
const PATH_KEPT_CHARS = 512;

type Match = ReturnType<typeof match>;

export function createFastLane(
  live: LiveState,
  hostChecks: (listenHost: string) => (name: string) => boolean,
  onError: (error: unknown) => void,
  /** Set with config `journal.bodies`: makes the journal's excerpt of a body. */
  excerpt?: (text: string | undefined) => BodyExcerpt | null,
): (req: PlainRequest) => AnyOutcome | undefined {
  // The Host check's verdict per listening address and Host header: a client sends the same
  // one on every request, and the check parses it as a URL.
  // Maps within maps, here and below (see inner-map.ts).
  const hostVerdictsPerListen = new Map<string, Map<string, boolean>>();
  function hostPasses(listenHost: string, host: string | undefined): boolean {
    if (host === undefined) return false;
    const hostVerdicts = innerMap(hostVerdictsPerListen, listenHost);
    let passes = hostVerdicts.get(host);
    if (passes === undefined) {
      if (hostVerdicts.size >= HOSTS_KEPT) hostVerdicts.clear();
      passes = false;
      try {
        const { hostname } = new URL(`http://${host}/`);
        // The node adapter refuses a Host whose URL form names another host (a 400 of its own):
        // such a request is the router's to answer.
        const sameHost = hostname.length === host.length || hostname === host.replace(/:\d+$/, '');
        passes = sameHost && !hostOutcome(hostChecks(listenHost), host, `http://${host}/`);
      } catch {}
      hostVerdicts.set(host, passes);
    }
    return passes;
  }

  // The table entry per method and path: a client asks for the same few paths again and again,
  // and matching one costs a regular expression, a split and a walk of the table. Only matches
  // are kept (their params are only read); the map is emptied when full. A path too long for
  // an identifier is not kept.
  const matchesPerMethod = new Map<string, Map<string, NonNullable<Match>>>();
  function matchOf(method: string, path: string): Match {
    let found = matchesPerMethod.get(method)?.get(path);
    if (found) return found;
    found = PLAIN_PATH.test(path) ? match(method, path) : undefined;
    if (!found || path.length > PATH_KEPT_CHARS) return found;
    // Only a table entry's method gets here, so the outer map stays as small as the table.
    const matches = innerMap(matchesPerMethod, method);
    if (matches.size >= MATCHES_KEPT) matches.clear();
    matches.set(path, found);
    return found;
  }

  const stubRoutes = new Map(
    (Object.keys(ENDPOINTS) as EndpointName[]).map((name) => [name, stubRouteOf(name)]),
  );
  const mayBeStubbed = (name: EndpointName, params: Record<string, string>, req: PlainRequest) => {
    // An unknown key is a 401 whatever the stubs say, and the lane answers it as the router would.
    const account = live.state.accounts.byAuthorization(req.header('authorization'));
    if (!account) return false;
    const route = stubRoutes.get(name) as FaultRoute;
    return live.state.stubs.mayMatch(
      {
        route,
        profileId: stubProbeProfile(route, {
          param: (param) => params[param],
          body: req.body,
          jobProfile: (jobId) => live.state.jobs.get(jobId.toLowerCase())?.job.profile_id,
        }),
        idempotencyKey: req.header('idempotency-key'),
      },
      account.id,
    );
  };

  return (req) => {
    const found = matchOf(req.method, req.path);
    if (!found) return undefined;
    const endpoint = ENDPOINTS[found.name];
    // A fault is drawn per request by the router's fault step; so is an Origin's check.
    if (live.state.faults.config().rules.length > 0 || req.header('origin') !== undefined) return undefined;
    // A request some stub may answer is the router's (routes/apply-stub.ts); one no stub can
    // match stays here, whatever the number of stubs.
    if (live.state.stubs.active > 0 && mayBeStubbed(found.name, found.params, req)) return undefined;
    if (req.listenHost !== undefined && !hostPasses(req.listenHost, req.header('host'))) return undefined;
    // A body the transport did not read whole is the router's to stream, limit and refuse.
    if (req.body === undefined && ('body' in endpoint || carriesBody(req.header))) return undefined;
    if (contentTypeOutcome(req.method, req.path, req.header)) return undefined;

    let accountId: string | null = null;
    let outcome: AnyOutcome;
    try {
      const caller = authorize(live, req.header('authorization'));
      if (!caller.ok) outcome = caller.outcome;
      else {
        accountId = caller.ctx.account.id;
        const input = checkEndpointArgs(
          endpoint,
          { param: (name) => found.params[name], header: req.header },
          req.body,
        );
        outcome = input.ok
          ? runOperation(found.name, caller.ctx, input.args as never, req.origin)
          : input.outcome;
      }
    } catch (error) {
      onError(error);
      outcome = fail(500, 'Internal mock server error');
    }
    live.state.journal.record({
      at: live.clock.now(),
      method: req.method,
      path: req.path,
      status: outcome.status,
      accountId,
      idempotencyKey: req.header('idempotency-key') ?? null,
      requestId: req.requestId,
      ...(excerpt && { requestBody: excerpt(req.body), responseBody: excerpt(toJsonText(outcome.body)) }),
    });
    return outcome;
  };
}
