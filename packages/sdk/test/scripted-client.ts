// A client against a fresh scripted server per test; the servers close after each test.
import { afterEach } from 'vitest';
import { ProfileArticles } from '../src/index.js';
import { scriptedServer } from './scripted-server.js';

type Steps = Parameters<typeof scriptedServer>[0];
type Options = ConstructorParameters<typeof ProfileArticles>[0];

/** Call once per test file; returns `setup(steps, options)` and `track(server)` for extra servers. */
export function useScriptedServers() {
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
    const client = new ProfileArticles({ apiKey: 'sk-secret', baseUrl: server.url, ...options });
    return { server, client };
  }
  return { setup, track };
}
