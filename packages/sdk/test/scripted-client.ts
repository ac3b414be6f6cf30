// A client against a fresh scripted server per test; the servers close after each test.

import { scriptedServer } from '@profile-articles/test-utils/scripted-server';
import { afterEach } from 'vitest';
import { type ClientOptions, ProfileArticles } from '../src/node.js';

type Steps = Parameters<typeof scriptedServer>[0];
type Options = ConstructorParameters<typeof ProfileArticles>[0];

/**
 * The two ways a client on Node sends its requests: node:http (the Node entry's default) and a
 * fetch (what a `fetch` option or another runtime gives). Suites that test behaviour over HTTP
 * run over both, so the default transport keeps every behaviour fetch gave.
 */
export const TRANSPORTS: ReadonlyArray<{ name: string; options: ClientOptions }> = [
  { name: 'node:http', options: {} },
  { name: 'fetch', options: { fetch: globalThis.fetch } },
];

/**
 * Call once per test file (or per transport); returns `setup(steps, options)` and
 * `track(server)` for extra servers. `defaults` go into every client, under `options`.
 */
export function useScriptedServers(defaults: Options = {}) {
  const servers: Array<{ close: () => Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const track = <S extends { close: () => Promise<void> }>(server: S): S => {
    servers.push(server);
    return server;
  };
  async function setup(steps: Steps, options: Options = {}) {
    const server = track(await scriptedServer(steps));
    const client = new ProfileArticles({ apiKey: 'sk-secret', baseUrl: server.url, ...defaults, ...options });
    return { server, client };
  }
  return { setup, track };
}
