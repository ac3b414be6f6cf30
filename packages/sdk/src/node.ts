// @profile-articles/sdk on Node (the `node` export condition; Bun and Deno take the neutral
// entry): the same API, whose client sends its requests over node:http unless given a `fetch`.
// ky stays the HTTP layer; only the fetch under it changes (see node-fetch.ts and
// docs/performance.md, "Per-call cost").
import { ProfileArticles as Client } from './client.js';
import { nodeFetch } from './node-fetch.js';
import type { ClientOptions } from './options.js';

export * from './index.js';

/** Node's own fetch, or whatever stood in for it when the SDK was loaded. */
const fetchAtLoad = globalThis.fetch;

/** The Profile Article Service client; on Node its default `fetch` goes through node:http. */
export class ProfileArticles extends Client {
  constructor(options: ClientOptions = {}) {
    // A `fetch` given wins; so does a global fetch replaced since the SDK loaded (msw's
    // `listen()`, a test's stub), which the client takes as it always has.
    const own = options.fetch === undefined && globalThis.fetch === fetchAtLoad;
    super(own ? { ...options, fetch: nodeFetch } : options);
  }
}
