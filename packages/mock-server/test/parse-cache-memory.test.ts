// The mock remembers what it parsed, so that a replayed request is parsed once. Keyed by the
// whole body text, it kept every distinct valid body, up to 1,024 of up to 1 MiB per schema:
// 600 whitespace-padded bodies grew it from 56 to 699 MiB, and under a 400 MB heap limit it
// died after 300–400 requests. Here a mock with a small heap takes 120 such bodies (more than twice what killed it) and must
// answer every one (it spawns the built bin: `pnpm build` first); and ids the caches keep must
// not keep the request lines they were cut from.
import { Agent, request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startMockServer } from '@profile-articles/mock-server';
import { type MockProcess, useMockProcesses } from '@profile-articles/test-utils/mock-process';
import { afterEach, describe, expect, it } from 'vitest';

const KEY = 'sk-memory-test-key';
/** Far below what 200 bodies of 1 MiB kept would take; the idle mock needs about 10 MiB. */
const HEAP_MB = 64;
const BODY = JSON.stringify({ profile_id: 'ada-lovelace' });
/** Just under the mock's 1 MiB body limit. */
const PADDED_BYTES = 1024 * 1024 - 1024;

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  agent.destroy();
  await Promise.all(closers.splice(0).map((close) => close()));
});

const ACCOUNT = { id: 'mem', apiKeys: [KEY], credits: 1000, pricing: { requests_per_minute: 1_000_000 } };

/** This process's heap after a full collection: what is still held. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** The mock in this process, for a heap measured to the byte rather than a crash. */
async function startInProcess(): Promise<Pick<MockProcess, 'url' | 'stderr'>> {
  const server = await startMockServer({ port: 0, config: { accounts: [ACCOUNT] } });
  closers.push(server.close);
  return { url: server.url, stderr: () => '' };
}

/** One request on the kept-alive socket; its status, or the connection's failure with the mock's stderr. */
function send(
  mock: Pick<MockProcess, 'url' | 'stderr'>,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const { port } = new URL(mock.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          ...headers,
          authorization: `Bearer ${KEY}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', (error) =>
      reject(new Error(`${error.message}; the mock said: ${mock.stderr().slice(-2000) || '(nothing)'}`)),
    );
    req.end(body);
  });
}

describe('the parse cache under distinct valid inputs', () => {
  const start = useMockProcesses();

  it('keeps the mock within a small heap through 120 padded 1 MiB bodies', async () => {
    const mock = await start({ accounts: [ACCOUNT] }, [`--max-old-space-size=${HEAP_MB}`]);
    const statuses = new Set<number>();
    for (let i = 0; i < 120; i++) {
      // A distinct text each time (one more space), the same valid request.
      const padded = BODY + ' '.repeat(PADDED_BYTES - BODY.length - i);
      statuses.add(await send(mock, 'POST', '/api/v1/articles', padded, { 'idempotency-key': `key-${i}` }));
    }
    // 202 for the first, then 409 (its job is active) or 200 (done): each body was parsed valid.
    expect([...statuses].filter((status) => ![200, 202, 409].includes(status))).toEqual([]);
    expect(mock.child.exitCode).toBeNull();
  });

  it.each([
    ['the fast lane', {}],
    ['the router (a request with an Origin)', { origin: 'http://127.0.0.1' }],
  ])('keeps no request line alive through what it keeps from a request, on %s', async (_lane, headers) => {
    const mock = await startInProcess();
    // Valid ids, each cut from a request line that also carries a 12 KiB query: kept as views
    // into those lines (by the journal, the route cache and the parse cache), 1,000 held 12 MiB.
    const query = `?q=${'x'.repeat(12 * 1024)}`;
    const id = (i: number) => `${'p'.repeat(190)}-${i}`;
    const get = (path: string) => send(mock, 'GET', path, undefined, headers);
    // Warm: the code paths run once before the heap is measured.
    for (let i = 0; i < 50; i++) expect(await get(`/api/v1/articles/warm-${i}`)).toBe(404);
    const before = heapAfterGc();
    for (let i = 0; i < 1000; i++) expect(await get(`/api/v1/articles/${id(i)}${query}`)).toBe(404);
    const grown = heapAfterGc() - before;
    // 1,000 ids and paths of 200 characters, each kept in a few places, are about 2 MiB.
    expect(grown / 1024 / 1024).toBeLessThan(4);
  });
});
