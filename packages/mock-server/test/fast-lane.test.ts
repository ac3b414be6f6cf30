// The fast lane (src/routes/fast-lane.ts) answers the API's everyday requests without the
// router; it must answer exactly what the router answers. Two services with the same config,
// seeded ids and clock, one with the lane turned off, get the same generated request
// sequences over real HTTP: every answer must match byte for byte (the Date header aside),
// and so must the journal, the ledger and the stats after each sequence.
import { type MockConfig, type MockServer, startMockServer } from '@profile-articles/mock-server';
import { seededIds } from '@profile-articles/test-utils/seeded-ids';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService, fastLaneOf, type MockService, useFastLane } from '../src/service.js';
import { rawAnswer } from './raw-http.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const CONFIG: MockConfig = {
  accounts: [
    { id: 'a', apiKeys: ['key-aaaa'], credits: 30 },
    { id: 'b', apiKeys: ['key-bbbb'], credits: 40, pricing: { requests_per_minute: 6 } },
  ],
  jobs: { queuedMs: 1000, runningMs: 2000 },
  payments: 'enabled',
};

/**
 * Sends one request (Connection: close) and reads the whole answer, the Date header removed
 * and the server's own port (which a checkout URL names) written as PORT.
 */
async function exchange(port: number, request: string): Promise<string> {
  const answer = await rawAnswer(port, request);
  return answer.replace(/\r\nDate: [^\r]*/, '').replaceAll(`:${port}`, ':PORT');
}

interface Step {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
  advanceMs: number;
}

const ids = fc.constantFrom(
  'ada',
  'fail-x',
  'notfound-z',
  'grace',
  'a.b',
  '..',
  '%61da',
  'Ａ',
  'x'.repeat(201),
);
const jobIds = fc.constantFrom(
  '00000000-0000-4000-8000-000000000001',
  '00000000-0000-4000-8000-000000000002',
  '00000000-0000-4000-8000-00000000000A',
  'not-a-uuid',
);
const paths = fc.oneof(
  ids.map((id) => `/api/v1/articles/${id}`),
  ids.map((id) => `/api/v1/articles/${id}/update`),
  jobIds.map((id) => `/api/v1/jobs/${id}`),
  fc.constantFrom(
    '/api/v1/articles',
    '/api/v1/credits',
    '/api/v1/credits/checkout',
    '/api/v1/credits/',
    '/api/v1/nope',
  ),
);
const bodies = fc.option(
  fc.oneof(
    ids.map((id) => JSON.stringify({ profile_id: id })),
    fc.integer({ min: -5, max: 200_000 }).map((credits) => JSON.stringify({ credits })),
    fc.constantFrom(
      '{',
      '',
      '[]',
      '{"profile_id": 5}',
      '{"profile_id":"ada","extra":1}',
      '\ufeff{"credits":100}',
    ),
  ),
  { nil: undefined },
);
const step: fc.Arbitrary<Step> = fc.record({
  method: fc.constantFrom('GET', 'GET', 'POST', 'POST', 'HEAD', 'DELETE'),
  path: fc.tuple(paths, fc.constantFrom('', '', '?x=1')).map(([path, query]) => path + query),
  headers: fc
    .record(
      {
        authorization: fc.constantFrom(
          'Bearer key-aaaa',
          'Bearer key-aaaa',
          'Bearer key-bbbb',
          'Bearer nope',
          'Basic x',
        ),
        'idempotency-key': fc.constantFrom('k1', 'k2', 'k3', ' ', 'x'.repeat(300)),
        'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
        origin: fc.constantFrom('http://127.0.0.1', 'https://evil.example'),
        host: fc.constantFrom('127.0.0.1', 'localhost', 'evil.example'),
      },
      { requiredKeys: ['authorization'] },
    )
    .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined))),
  body: bodies,
  advanceMs: fc.constantFrom(0, 0, 0, 500, 1500, 61_000),
});

function requestText(port: number, { method, path, headers, body }: Step): string {
  const all: Record<string, string> = { host: `127.0.0.1:${port}`, ...headers, connection: 'close' };
  if (headers.host) all.host = `${headers.host}:${port}`;
  if (body !== undefined) all['content-length'] = String(Buffer.byteLength(body));
  const head = Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `${method} ${path} HTTP/1.1\r\n${head}\r\n${body ?? ''}`;
}

describe('the fast lane', () => {
  let services: { lane: MockService; router: MockService };
  let servers: { lane: MockServer; router: MockServer };
  beforeAll(async () => {
    const make = () => createMockService(CONFIG, { now: () => T0, newId: seededIds() });
    services = { lane: make(), router: make() };
    useFastLane(services.router, false);
    servers = {
      lane: await startMockServer({ port: 0, service: services.lane }),
      router: await startMockServer({ port: 0, service: services.router }),
    };
  });
  afterAll(async () => {
    await servers.lane.close();
    await servers.router.close();
  });

  it('answers every request exactly as the router does, over HTTP', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        services.lane.reset();
        services.router.reset();
        for (const s of steps) {
          const [viaLane, viaRouter] = await Promise.all([
            exchange(servers.lane.port, requestText(servers.lane.port, s)),
            exchange(servers.router.port, requestText(servers.router.port, s)),
          ]);
          expect(viaLane).toBe(viaRouter);
          services.lane.advanceClock(s.advanceMs);
          services.router.advanceClock(s.advanceMs);
        }
        expect(services.lane.journal()).toEqual(services.router.journal());
        expect(services.lane.ledger()).toEqual(services.router.ledger());
        expect(services.lane.stats()).toEqual(services.router.stats());
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
    );
  });

  it('answers every request exactly as the router does, in process (msw and tests)', async () => {
    const make = () => createMockService(CONFIG, { now: () => T0, newId: seededIds() });
    const lane = make();
    const router = make();
    useFastLane(router, false);
    const answer = async (service: MockService, { method, path, headers, body }: Step) => {
      const withBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
      const request = new Request(`http://127.0.0.1${path}`, {
        method,
        headers,
        ...(withBody ? { body } : {}),
      });
      const response = await service.handle(request);
      return { status: response.status, headers: [...response.headers], body: await response.text() };
    };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        lane.reset();
        router.reset();
        for (const s of steps) {
          expect(await answer(lane, s)).toEqual(await answer(router, s));
          lane.advanceClock(s.advanceMs);
          router.advanceClock(s.advanceMs);
        }
        expect(lane.journal()).toEqual(router.journal());
        expect(lane.ledger()).toEqual(router.ledger());
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
    );
  });

  it('keeps every request no registered stub can match, and leaves a stubbed one to the router', () => {
    const config = {
      ...CONFIG,
      accounts: [
        { id: 'a', apiKeys: ['key-aaaa'], credits: 1000 },
        { id: 'b', apiKeys: ['key-bbbb'], credits: 1000 },
      ],
    };
    const service = createMockService(config, { now: () => T0, newId: seededIds() });
    const lane = fastLaneOf(service)!;
    const plain = (path: string, key: string, extra: Record<string, string> = {}, body?: string) => ({
      requestId: 'req_1',
      method: body === undefined ? 'GET' : 'POST',
      path,
      header: (name: string) => ({ authorization: `Bearer ${key}`, ...extra })[name],
      body,
      origin: () => 'http://127.0.0.1:4010',
    });
    for (let i = 0; i < 100; i++)
      service.stub({
        match: { route: 'POST /api/v1/articles', profileId: `nobody-${i}` },
        outcome: { status: 500 },
      });
    service.stub({ match: { account: 'b' }, outcome: { status: 500 } });
    service.stub({ match: { idempotencyKey: 'stubbed' }, outcome: { status: 500 } });
    const json = { 'content-type': 'application/json' };
    expect(lane(plain('/api/v1/credits', 'key-aaaa'))?.status).toBe(200);
    const generate = (profile: string, key: string) =>
      lane(
        plain(
          '/api/v1/articles',
          'key-aaaa',
          { ...json, 'idempotency-key': key },
          JSON.stringify({ profile_id: profile }),
        ),
      );
    expect(generate('ada', 'k1')?.status).toBe(202);
    // Each of these a stub may answer: the router's, which applies it.
    expect(generate('nobody-7', 'k2')).toBeUndefined();
    expect(generate('grace', 'stubbed')).toBeUndefined();
    expect(lane(plain('/api/v1/credits', 'key-bbbb'))).toBeUndefined();
    // An unknown key is a 401 whatever the stubs say.
    expect(lane(plain('/api/v1/credits', 'nope'))?.status).toBe(401);
  });

  it('takes the everyday requests, and leaves the rest to the router', () => {
    const config = { ...CONFIG, accounts: [{ id: 'a', apiKeys: ['key-aaaa'], credits: 1000 }] };
    const service = createMockService(config, { now: () => T0, newId: seededIds() });
    const lane = fastLaneOf(service);
    if (!lane) throw new Error('a service made by createMockService has a fast lane');
    const headers: Record<string, string> = { authorization: 'Bearer key-aaaa', host: '127.0.0.1:4010' };
    const plain = (method: string, path: string, extra: Record<string, string> = {}, body?: string) => ({
      requestId: 'req_1',
      method,
      path,
      header: (name: string) => ({ ...headers, ...extra })[name],
      body,
      listenHost: '127.0.0.1',
      origin: () => 'http://127.0.0.1:4010',
    });
    const json = { 'content-type': 'application/json', 'idempotency-key': 'k' };
    // Taken: each table entry's method on a plain path.
    expect(lane(plain('GET', '/api/v1/credits'))?.status).toBe(200);
    expect(lane(plain('POST', '/api/v1/articles', json, '{"profile_id":"ada"}'))?.status).toBe(202);
    expect(lane(plain('GET', '/api/v1/articles/ada'))?.status).toBe(404); // taken: no article yet
    expect(lane(plain('GET', '/api/v1/jobs/00000000-0000-4000-8000-000000000001'))?.status).toBe(200);
    expect(lane(plain('GET', '/api/v1/credits', { authorization: 'Bearer nope' }))?.status).toBe(401);
    // Left to the router: another method, an odd path, an Origin, a body not read whole, a
    // Host it does not serve.
    expect(lane(plain('HEAD', '/api/v1/credits'))).toBeUndefined();
    expect(lane(plain('DELETE', '/api/v1/credits'))).toBeUndefined();
    expect(lane(plain('GET', '/api/v1/credits/'))).toBeUndefined();
    expect(lane(plain('GET', '/api/v1/articles/%61da'))).toBeUndefined();
    expect(lane(plain('GET', '/api/v1/articles/..'))).toBeUndefined();
    expect(lane(plain('GET', '/api/v1/credits', { origin: 'http://127.0.0.1' }))).toBeUndefined();
    expect(lane(plain('POST', '/api/v1/articles', json))).toBeUndefined();
    expect(lane(plain('GET', '/api/v1/credits', { host: 'evil.example' }))).toBeUndefined();
    // Nor while faults are drawn per request.
    service.setFaults({ rules: [{ route: '*', kind: 'fail', probability: 0.5 }] });
    expect(lane(plain('GET', '/api/v1/credits'))).toBeUndefined();
  });
});
