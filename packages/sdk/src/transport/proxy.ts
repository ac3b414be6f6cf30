// The `proxy` option on Node: the agents that carry node-fetch.ts's requests through an HTTP
// proxy, and what a failure there says. Loaded only when a client has a proxy (node.ts imports
// this module when its first request needs it), and the agents' packages with it: `import()`
// stays an import in the CommonJS build too, so their ES modules load there as well. Why these
// packages: docs/decisions/0007-proxy-agents.md.
import type { Agent } from 'node:http';

/** What node-fetch.ts needs to send one request through the proxy. */
export interface Route {
  agent: Agent;
  /**
   * A failure before the answer, made to say that it happened at the proxy. `opened`: the
   * proxy had opened the tunnel (https) or taken the connection (http).
   */
  failed(error: unknown, opened: boolean): unknown;
  /** A tunnel the proxy answered with another status than 200, as an error. */
  refused(status: number, statusText: string): Error;
}

/** Codes of a connection to the proxy that was never made: nothing was sent. */
const UNREACHED = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/;

/**
 * Node's own name (its built-in proxy support uses it) for a tunnel that never opened: the
 * request never left this machine, so the SDK may send it again, even a checkout.
 */
const TUNNEL = 'ERR_PROXY_TUNNEL';

/**
 * An error at the proxy. `proxy` marks it for attempt.ts, which puts its message into the
 * ConnectionError, then the proxy's own `words` (a reason phrase) once the key is out of them.
 */
function atProxy(message: string, code: string | undefined, cause: unknown, words?: string): Error {
  return Object.assign(new Error(message, { cause }), {
    proxy: true,
    ...(code ? { code } : {}),
    ...(words ? { words } : {}),
  });
}

/** A route for https requests and one for http requests through `proxy`, each made when first needed. */
export function proxyRoutes(proxy: URL): (secure: boolean) => Promise<Route> {
  // The origin only: a proxy URL may carry a user and password, which no message may show.
  const name = `the proxy ${proxy.origin}`;
  const routes: Array<Promise<Route> | undefined> = [];
  const make = async (secure: boolean): Promise<Route> => {
    // Keep-alive, as Node's global agents: a tunnel or connection is reused across requests.
    const agent = secure
      ? new (await import('https-proxy-agent')).HttpsProxyAgent(proxy, { keepAlive: true })
      : new (await import('http-proxy-agent')).HttpProxyAgent(proxy, { keepAlive: true });
    return {
      agent,
      failed(error, opened) {
        // Past an open tunnel the proxy only relays: a TLS or server failure is the server's.
        // A refused tunnel (see `refused`) already says so.
        if ((secure && opened) || (error as { proxy?: unknown }).proxy) return error;
        const code = (error as { code?: unknown }).code;
        const known = typeof code === 'string' ? code : undefined;
        if (!opened && known && UNREACHED.test(known)) {
          return atProxy(`${name} could not be reached (${known})`, known, error);
        }
        return secure
          ? atProxy(`${name} dropped the connection before opening the tunnel`, TUNNEL, error)
          : atProxy(`${name} dropped the connection before answering`, known, error);
      },
      // The reason phrase is the proxy's text, which may hold the key: printable ASCII only,
      // kept whole here, for attempt.ts to redact before it cuts it short (a cut first could
      // leave part of the key).
      refused: (status, statusText) =>
        atProxy(
          `${name} refused the tunnel: ${status}`,
          TUNNEL,
          undefined,
          statusText.replace(/[^\x20-\x7e]/g, '').trim(),
        ),
    };
  };
  return (secure) => {
    const at = Number(secure);
    routes[at] ??= make(secure);
    return routes[at];
  };
}
