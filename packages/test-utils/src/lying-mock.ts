// Hostile behaviours on top of the real mock: a Drift rewrites one of the mock's answers (or
// moves its money behind the answer's back), given the request that produced it. Each is a
// server that looks right at a glance and lies about money or time; a test starts a mock
// behind one (or several, with `drifts`) and checks that the client under test is not fooled.
// verify's harness proxies through them (packages/mock-server/test/verify/harness.ts).
import type { MockService } from '@profile-articles/mock-server';
import { API_PREFIX, ENDPOINTS, type EndpointName } from '@profile-articles/sdk/internal';
import type { PricingInput } from '@profile-articles/sdk/schemas';
import { endpointFor } from './mock-harness.js';

/** Rewrites one answer of the real mock, given the request that produced it. */
export type Drift = (
  request: Request,
  response: Response,
  service: MockService,
) => Promise<Response> | Response;

/** Applies each drift in turn to what the one before answered. */
export function drifts(...all: Drift[]): Drift {
  return async (request, response, service) => {
    let answer = response;
    for (const drift of all) answer = await drift(request, answer, service);
    return answer;
  };
}

/** Whether `request` is for the table's `endpoint`. */
export function isFor(request: Request, endpoint: EndpointName): boolean {
  const path = new URL(request.url).pathname;
  if (!path.startsWith(`${API_PREFIX}/`)) return false;
  return endpointFor(request.method, path.slice(API_PREFIX.length)) === ENDPOINTS[endpoint];
}

/** `from`'s status and headers, with `body` as its JSON. */
export function json(body: unknown, from: Response): Response {
  const copy = new Headers(from.headers);
  copy.delete('content-length');
  return new Response(JSON.stringify(body), { status: from.status, headers: copy });
}

/** Rewrites the JSON body of `endpoint`'s 2xx answers; anything else passes untouched. */
export function rewriteBody(
  endpoint: EndpointName,
  rewrite: (body: Record<string, unknown>, request: Request) => Record<string, unknown>,
): Drift {
  return async (request, response) => {
    if (!isFor(request, endpoint) || response.status >= 300) return response;
    return json(rewrite((await response.json()) as Record<string, unknown>, request), response);
  };
}

/** The balance answer advertises `pricing` (merged over the real terms); the mock still charges its own. */
export const advertise = (pricing: PricingInput): Drift =>
  rewriteBody('getBalance', (body) => ({
    ...body,
    pricing: { ...(body.pricing as object), ...pricing },
  }));

/** Changes nothing: counts the requests for `endpoint` the mock answered, in `seen.count`. */
export const countRequests =
  (endpoint: EndpointName, seen: { count: number }): Drift =>
  (request, response) => {
    if (isFor(request, endpoint)) seen.count++;
    return response;
  };

/** The balance answer shows the first balance it ever showed, whatever was spent since. */
export function frozenBalance(): Drift {
  let shown: unknown;
  return rewriteBody('getBalance', (body) => {
    shown ??= body.credits;
    return { ...body, credits: shown };
  });
}

/**
 * `credits` are taken from the requesting account after `endpoint` answered with a status
 * `when` accepts (any by default): a charge the answer does not mention.
 */
export function chargeFor(
  endpoint: EndpointName,
  credits: number,
  when: (status: number) => boolean = () => true,
): Drift {
  return (request, response, service) => {
    if (!isFor(request, endpoint) || !when(response.status)) return response;
    const account = service.state().accounts.byAuthorization(request.headers.get('authorization'));
    if (account) {
      const meta = { reason: 'read' as const, profileId: new URL(request.url).pathname };
      service.state().ledger.take(account.id, credits, 'charge', meta, service.now());
    }
    return response;
  };
}

/** `endpoint`'s 2xx answers say they charged `credits`, whatever they did charge. */
export const claimCharged = (endpoint: EndpointName, credits: number): Drift =>
  rewriteBody(endpoint, (body) => ('credits_charged' in body ? { ...body, credits_charged: credits } : body));

/** Every job is shown failed and refunded (`credits_charged: 0`); its credits stay taken. */
export const failWithoutRefund = (): Drift =>
  rewriteBody('getJob', (body) => ({
    ...body,
    status: 'failed',
    credits_charged: 0,
    article: null,
    error: 'The research run failed',
  }));

/** Every job is shown queued for ever. */
export const neverFinish = (): Drift =>
  rewriteBody('getJob', (body) => ({ ...body, status: 'queued', article: null, error: null }));

/** Every 429 carries `Retry-After: value` instead of the real one. */
export const retryAfter =
  (value: string): Drift =>
  (_request, response) => {
    if (response.status !== 429) return response;
    const headers = new Headers(response.headers);
    headers.set('retry-after', value);
    return new Response(response.body, { status: 429, headers });
  };

/**
 * Every answer carries `X-Request-Id: id` instead of the mock's own: any text a header can hold
 * (a byte from 0x80, such as the 8-bit CSI U+009B that starts a terminal escape, but no C0
 * control, which HTTP parsers refuse).
 */
export const requestIdAs =
  (id: string): Drift =>
  (_request, response) => {
    const headers = new Headers(response.headers);
    headers.set('x-request-id', id);
    return new Response(response.body, { status: response.status, headers });
  };
