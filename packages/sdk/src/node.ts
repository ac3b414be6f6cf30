// @profile-articles/sdk on Node (the `node` export condition; Bun and Deno take the neutral
// entry): the same API, whose client sends its requests over node:http unless given a `fetch`,
// and which alone takes the `proxy` option. Only the default fetch differs from the neutral
// entry's (see node-fetch.ts and docs/performance.md, "Per-call cost").
import { ProfileArticles as Client, GIVEN } from './client.js';
import type { ClientOptions } from './core/option-types.js';
import { InvalidArgumentError } from './errors/errors.js';
import {
  createNodeFetch,
  nodeFetch,
  proxyRefusesFetchOptions,
  type RouteFor,
} from './transport/node-fetch.js';

export * from './index.js';

/** Node's own fetch, or whatever stood in for it when the SDK was loaded. */
const fetchAtLoad = globalThis.fetch;

/**
 * The route through the proxy a client was given, checked now; the agents load with the first
 * request (proxy.ts), so a client without a proxy never loads them.
 */
function proxyRoute(proxy: string | URL): RouteFor {
  let url: URL;
  try {
    url = new URL(String(proxy));
  } catch {
    // A malformed URL may still hold a password: echo it only when it cannot.
    const shown = String(proxy).includes('@') ? '' : `: "${String(proxy)}"`;
    throw new InvalidArgumentError(`proxy is not a valid URL${shown}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(`proxy must be an http:// or https:// URL, got "${url.protocol}"`);
  }
  let routes: Promise<RouteFor> | undefined;
  return async (secure) => {
    routes ??= import('./transport/proxy.js').then((loaded) => loaded.proxyRoutes(url));
    return (await routes)(secure);
  };
}

/** The Profile Article Service client; on Node its default `fetch` goes through node:http. */
export class ProfileArticles extends Client {
  constructor(options: ClientOptions = {}) {
    const { proxy, ...rest } = options;
    if (proxy !== undefined) {
      if (options.fetch !== undefined) {
        throw new InvalidArgumentError(
          'proxy applies to the SDK’s own transport: with your own fetch, send it through the proxy yourself',
        );
      }
      if (options.fetchOptions !== undefined) throw proxyRefusesFetchOptions();
      super({ ...rest, fetch: createNodeFetch(proxyRoute(proxy)), [GIVEN]: options } as ClientOptions);
      return;
    }
    // A `fetch` given wins; so does a global fetch replaced since the SDK loaded (msw's
    // `listen()`, a test's stub), which the client takes as it always has.
    const own = options.fetch === undefined && globalThis.fetch === fetchAtLoad;
    // What the caller gave, for withOptions(): a derived client chooses its own default fetch.
    super(own ? ({ ...options, fetch: nodeFetch, [GIVEN]: options } as ClientOptions) : options);
  }
}
