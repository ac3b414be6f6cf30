import { inspect } from 'node:util';
import { startMockServer } from '@profile-articles/mock-server';
import { reply, reset, scriptedServer } from '@profile-articles/test-utils/scripted-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileArticles } from '../src/node.js';
import { TRANSPORTS } from './scripted-client.js';

const KEY = 'sk-live-VERY-SECRET-1234567890';

function exposures(value: unknown): string[] {
  const error = value as Error;
  return [
    inspect(value, { depth: 10, showHidden: true }),
    JSON.stringify(value) ?? '',
    String(value),
    error?.message ?? '',
    error?.stack ?? '',
    inspect((value as { cause?: unknown })?.cause, { depth: 10 }),
  ];
}

/**
 * With `globals` set as a browser's scope has them, a client is refused unless it says
 * dangerouslyAllowBrowser; the globals are removed again afterwards.
 */
function expectRefusedWith(globals: Record<string, unknown>): void {
  const g = globalThis as Record<string, unknown>;
  Object.assign(g, globals);
  try {
    expect(() => new ProfileArticles({ apiKey: KEY, baseUrl: 'http://x' })).toThrow(/server-side/);
    expect(
      () => new ProfileArticles({ apiKey: KEY, baseUrl: 'http://x', dangerouslyAllowBrowser: true }),
    ).not.toThrow();
  } finally {
    for (const name of Object.keys(globals)) delete g[name];
  }
}
describe('the API key never leaks', () => {
  let mockUrl: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const server = await startMockServer({
      port: 0,
      config: { accounts: [{ id: 'a', apiKeys: [KEY], credits: 0 }] },
    });
    mockUrl = server.url;
    close = server.close;
  });
  afterAll(() => close());

  it('not from util.inspect or JSON.stringify of the client', () => {
    const client = new ProfileArticles({ apiKey: KEY, baseUrl: 'http://127.0.0.1:1' });
    for (const text of exposures(client)) expect(text).not.toContain(KEY);
    expect(JSON.stringify(client)).toContain('[redacted]');
    for (const text of exposures(client.articles)) expect(text).not.toContain(KEY);
  });

  it.each(TRANSPORTS)(
    'not from any error the SDK throws, nor from log lines and hooks, over $name',
    async ({ options }) => {
      const lines: string[] = [];
      const hookCalls: unknown[] = [];
      // Every level, each written in full, so every line the SDK writes is read.
      const record = (message: string, meta?: unknown) => lines.push(message + JSON.stringify(meta ?? {}));
      const logger = { error: record, warn: record, info: record, debug: record };
      const hooks = {
        onRequest: (i: unknown) => hookCalls.push(i),
        onResponse: (i: unknown) => hookCalls.push(i),
        onRetry: (i: unknown) => hookCalls.push(i),
      };
      const client = new ProfileArticles({
        ...options,
        apiKey: KEY,
        baseUrl: mockUrl,
        logger,
        logLevel: 'debug',
        hooks,
        maxRetries: 0,
      });
      const wrong = new ProfileArticles({
        ...options,
        apiKey: `${KEY}-wrong`,
        baseUrl: mockUrl,
        logger,
        logLevel: 'debug',
        hooks,
      });
      const scripted = await scriptedServer([reset, reply(500, { detail: 'x' })]);
      const broken = new ProfileArticles({
        ...options,
        apiKey: KEY,
        baseUrl: scripted.url,
        logger,
        logLevel: 'debug',
        hooks,
        maxRetries: 1,
      });
      const unreachable = new ProfileArticles({
        ...options,
        apiKey: KEY,
        baseUrl: 'http://127.0.0.1:1',
        logger,
        logLevel: 'debug',
        maxRetries: 0,
      });
      const failures = await Promise.allSettled([
        client.articles.generate('ada'), // 402
        client.articles.read('nobody'), // 404
        client.jobs.get('bad'), // 422
        wrong.credits.balance(), // 401
        broken.credits.balance(), // reset, then 500
        unreachable.credits.balance(), // connection refused
        client.jobs.waitFor('00000000-0000-4000-8000-000000000000', { timeoutMs: 10 }),
      ]);
      await scripted.close();
      expect(failures.every((f) => f.status === 'rejected')).toBe(true);
      for (const failure of failures) {
        for (const text of exposures((failure as PromiseRejectedResult).reason))
          expect(text).not.toContain('VERY-SECRET');
      }
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).not.toContain('VERY-SECRET');
      expect(inspect(hookCalls, { depth: 10 })).not.toContain('VERY-SECRET');
    },
  );

  it('refuses to run in a browser unless told otherwise', () => {
    expectRefusedWith({ window: {}, document: {} });
  });

  it('refuses to run in a Web Worker too, which has neither window nor document', () => {
    // A browser's worker scope as the SDK sees it: self, WorkerGlobalScope and importScripts.
    expectRefusedWith({
      self: globalThis,
      WorkerGlobalScope: function WorkerGlobalScope() {},
      importScripts: () => {},
    });
    // Outside a worker again (Node, Deno, Bun and edge runtimes define no importScripts): no refusal.
    expect(() => new ProfileArticles({ apiKey: KEY, baseUrl: 'http://x' })).not.toThrow();
  });
});
