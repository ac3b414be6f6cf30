// The mock's clock follows the test runner's fake timers (PRODUCT.md: createMockService() without
// `now` reads Date.now() whenever it needs the time): jobs, rate windows and the queued timeout
// move with vi.advanceTimersByTimeAsync, for a service made before the fake timers were turned
// on, in process and through msw (2 and 3), and advanceClock still adds to them. A mock started
// with startMockServer in the test's own process follows them too (the last block).
import { readFileSync } from 'node:fs';
import { createMockService, type MockService, startMockServer } from '@profile-articles/mock-server';
import { createHandlers } from '@profile-articles/mock-server/msw';
import { TEST_CONFIG } from '@profile-articles/test-utils/mock-harness';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

type Send = (method: string, path: string, key?: string, idempotencyKey?: string) => Promise<Response>;

/** `path#profile` is a POST whose body names that profile. */
function requestOf(base: string, method: string, path: string, key = 'key-0001', idempotencyKey?: string) {
  const [url, profile] = path.split('#');
  return new Request(`${base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    ...(profile === undefined ? {} : { body: JSON.stringify({ profile_id: profile }) }),
  });
}

/** The ways in: the service's own handle(), and fetch answered by the msw handlers. */
function transport(kind: 'in process' | 'msw'): { service: MockService; send: Send } {
  // Made at import, long before any test turns the fake timers on.
  const service = createMockService(TEST_CONFIG);
  const base = 'http://fake-timers.test';
  if (kind === 'in process')
    return {
      service,
      send: (method, path, key, ik) => service.handle(requestOf(base, method, path, key, ik)),
    };
  const msw = setupServer(...createHandlers(service, { baseUrl: base }));
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error', onUnhandledRequest: 'error' } as never));
  afterAll(() => msw.close());
  return { service, send: (method, path, key, ik) => fetch(requestOf(base, method, path, key, ik)) };
}

const json = async (response: Response) => (await response.json()) as Record<string, any>;

describe.each(['msw', 'in process'] as const)('fake timers, %s', (kind) => {
  const { service, send } = transport(kind);
  afterEach(() => {
    vi.useRealTimers();
    service.reset();
  });

  it('moves a job queued → running → succeeded with advanceTimersByTimeAsync', async () => {
    vi.useFakeTimers();
    const started = await json(await send('POST', '/api/v1/articles#ada-lovelace', 'key-0001', 'k1'));
    const path = `/api/v1/jobs/${started.job_id}`;
    expect((await json(await send('GET', path))).status).toBe('queued');
    await vi.advanceTimersByTimeAsync(1000);
    expect((await json(await send('GET', path))).status).toBe('running');
    await vi.advanceTimersByTimeAsync(4000);
    expect((await json(await send('GET', path))).status).toBe('succeeded');
  });

  it('lets a rate window pass with advanceTimersByTimeAsync', async () => {
    vi.useFakeTimers();
    for (let i = 0; i < 3; i++)
      expect((await send('GET', '/api/v1/credits', 'key-limited')).status).toBe(200);
    const refused = await send('GET', '/api/v1/credits', 'key-limited');
    expect(refused.status).toBe(429);
    await vi.advanceTimersByTimeAsync(59_000);
    expect((await send('GET', '/api/v1/credits', 'key-limited')).status).toBe(429);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await send('GET', '/api/v1/credits', 'key-limited')).status).toBe(200);
  });

  it('cancels a stuck job at the queued timeout, refunded, and advanceClock adds to the fake time', async () => {
    vi.useFakeTimers();
    const started = await json(await send('POST', '/api/v1/articles#stuck-one', 'key-0001', 'k2'));
    expect(service.balance('acme')).toBe(900);
    const path = `/api/v1/jobs/${started.job_id}`;
    const before = service.now();
    // Half of the queued timeout (30 minutes) from the fake timers, half from the mock's own clock.
    await vi.advanceTimersByTimeAsync(15 * 60_000);
    service.advanceClock(15 * 60_000 - 1);
    expect(service.now() - before).toBe(30 * 60_000 - 1);
    expect((await json(await send('GET', path))).status).toBe('queued');
    await vi.advanceTimersByTimeAsync(1);
    const job = await json(await send('GET', path));
    expect(job).toMatchObject({ status: 'cancelled', credits_charged: 0 });
    expect(service.balance('acme')).toBe(1000);
  });

  it('waits out a latency fault on the fake timers, looked up when the fault is met', async () => {
    service.setFaults({
      rules: [{ route: 'GET /api/v1/credits', kind: 'latency', probability: 1, latencyMs: 2000 }],
    });
    vi.useFakeTimers();
    let answered = false;
    const answer = send('GET', '/api/v1/credits').then((response) => {
      answered = true;
      return response;
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await answer).status).toBe(200);
  });

  it('never runs backwards when the fake timers are turned off after running ahead', async () => {
    vi.useFakeTimers();
    await vi.advanceTimersByTimeAsync(3_600_000);
    const ahead = service.now();
    vi.useRealTimers();
    expect(service.now()).toBeGreaterThanOrEqual(ahead);
  });
});

describe('fake timers, startMockServer in the same process', () => {
  let server: Awaited<ReturnType<typeof startMockServer>>;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, config: TEST_CONFIG });
  });
  afterAll(() => server.close());
  afterEach(() => vi.useRealTimers());

  it('moves its jobs with the fake timers, over real HTTP', async () => {
    // Only the timers and Date: Node's sockets keep their own, so real HTTP still flows.
    vi.useFakeTimers();
    const headers = { authorization: 'Bearer key-0001', 'content-type': 'application/json' };
    const started = await fetch(`${server.url}/api/v1/articles`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': 'http-1' },
      body: JSON.stringify({ profile_id: 'ada-lovelace' }),
    });
    const { job_id } = await json(started);
    await vi.advanceTimersByTimeAsync(5000);
    const done = await json(await fetch(`${server.url}/api/v1/jobs/${job_id}`, { headers }));
    expect(done.status).toBe('succeeded');
  });
});

it('docs/testing.md shows the fake-timer example file as it is', () => {
  const example = readFileSync(
    new URL('../../../examples/vitest-msw/fake-timers.test.ts', import.meta.url),
    'utf8',
  );
  const docs = readFileSync(new URL('../../../docs/testing.md', import.meta.url), 'utf8');
  expect(docs).toContain(
    `// examples/vitest-msw/fake-timers.test.ts, run by pnpm test\n${example.replace(/^(\/\/.*\n)+/, '')}`,
  );
});
