// The checks that come before everything else, so that a web page the developer happens to
// visit cannot use the mock: 421 for a Host the server does not answer to (DNS rebinding),
// 403 for a cross-site Origin, 415 for a POST body not declared as JSON (what an HTML form
// or a "simple" cross-site fetch sends). They answer before auth, so none of them counts
// against a rate window. Host and Origin are checked only where there is a socket: the
// node adapter passes the listening address; msw serves whatever origin a test intercepts.
import type { MiddlewareHandler } from 'hono';
import { BODY_METHODS } from '../config/limits.js';
import { requestHeader } from '../http/request-header.js';
import { respond } from '../http/respond.js';
import type { GuardEnv } from '../http/transport.js';
import { type Failure, fail } from '../operations/outcome.js';
import { createHostCheck, hostName } from '../rules/request/hosts.js';

const JSON_TYPE = /^application\/json\s*(;|$)/i;

function originUrl(origin: string): URL | undefined {
  try {
    const url = new URL(origin);
    return url.hostname ? url : undefined;
  } catch {
    return undefined; // `null` (a sandboxed page or a file) and garbage name no host
  }
}

/**
 * Whether a browser's `Origin` is the mock's own: the host and port the request's Host header
 * names (over http, or https behind a TLS front). Control calls from a browser must come from
 * the mock's own pages (the dashboard): a page of any other local server passed the Host check
 * (loopback on another port) and could reset the mock with a body-less POST, which needs no
 * CORS preflight.
 */
function isOwnOrigin(origin: URL, host: string | undefined): boolean {
  if (host === undefined || (origin.protocol !== 'http:' && origin.protocol !== 'https:')) return false;
  try {
    return new URL(`${origin.protocol}//${host}`).host === origin.host;
  } catch {
    return false;
  }
}

/** The Host header and, for an absolute request target, the URL's host must both be served. */
export function hostOutcome(
  check: (name: string) => boolean,
  host: string | undefined,
  url: string,
): Failure<421> | undefined {
  const names = [host === undefined ? undefined : hostName(host), new URL(url).hostname];
  if (names.every((name) => name !== undefined && check(name))) return undefined;
  const shown = names.find((name) => name !== undefined && !check(name)) ?? host ?? '';
  return fail(
    421,
    `This mock does not answer to the host "${shown}"; start it with --allow-host NAME to allow it`,
  );
}

/** Whether a request carries a body: a Content-Type, a Transfer-Encoding or a length above 0. */
export function carriesBody(headers: (name: string) => string | undefined): boolean {
  return (
    headers('content-type') !== undefined ||
    headers('transfer-encoding') !== undefined ||
    Number(headers('content-length')) > 0
  );
}

/** `application/json` for a POST, PUT or PATCH to the API or the control endpoints that has a body. */
export function contentTypeOutcome(
  method: string,
  path: string,
  headers: (name: string) => string | undefined,
) {
  if (!BODY_METHODS.has(method)) return undefined;
  if (!path.startsWith('/api/') && !path.startsWith('/_mock/')) return undefined;
  const type = headers('content-type');
  // JSON first: the everyday request passes on its type, without asking about its body.
  if ((type !== undefined && JSON_TYPE.test(type)) || !carriesBody(headers)) return undefined;
  return fail(
    415,
    `A request body must be sent as application/json, not ${type ?? 'without a Content-Type'}`,
  );
}

/** The Host check for one listening address, made once per address it is asked about. */
export function createHostChecks(
  allowHosts: readonly string[],
): (listenHost: string) => (name: string) => boolean {
  let checks: { listenHost: string; check: (name: string) => boolean } | undefined;
  return (listenHost) => {
    if (checks?.listenHost !== listenHost)
      checks = { listenHost, check: createHostCheck(listenHost, allowHosts) };
    return checks.check;
  };
}

export function createGuard(
  hostChecks: (listenHost: string) => (name: string) => boolean,
): MiddlewareHandler<GuardEnv> {
  return async (c, next) => {
    const listenHost = c.env?.listenHost;
    if (listenHost !== undefined) {
      const check = hostChecks(listenHost);
      const misdirected = hostOutcome(check, requestHeader(c, 'host'), c.req.url);
      if (misdirected) return respond(misdirected, c.env.requestId);
      const origin = requestHeader(c, 'origin');
      if (origin !== undefined) {
        const url = originUrl(origin);
        if (url === undefined || !check(url.hostname))
          return respond(
            fail(403, 'Cross-site requests are refused: the Origin is not a host this mock serves'),
            c.env.requestId,
          );
        if (c.req.path.startsWith('/_mock') && !isOwnOrigin(url, requestHeader(c, 'host')))
          return respond(
            fail(403, "Control calls from a browser are taken only from the mock's own pages (its origin)"),
            c.env.requestId,
          );
      }
    }
    // A browser's request from another page, even one with no Origin (a cross-origin GET made
    // by an <img> or <script> tag): the control endpoints and the dashboard serve their own
    // origin only ('same-origin'), or an address typed in ('none').
    if (listenHost !== undefined && c.req.path.startsWith('/_mock')) {
      const site = requestHeader(c, 'sec-fetch-site');
      if (site !== undefined && site !== 'same-origin' && site !== 'none')
        return respond(
          fail(403, "Control calls from a browser are taken only from the mock's own pages (its origin)"),
          c.env.requestId,
        );
    }
    const unsupported = contentTypeOutcome(c.req.method, c.req.path, (name) => requestHeader(c, name));
    if (unsupported) return respond(unsupported, c.env.requestId);
    await next();
  };
}
