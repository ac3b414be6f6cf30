// Outcome stubs, each outcome proved twice: over HTTP against the built bin in a child process
// (stubs registered with POST /_mock/stubs) and in process through msw 2 and 3 (registered with
// service.stub()). What each outcome does to the ledger, the jobs and the journal is read from
// the mock's own control endpoints, so both legs check the same things.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigError,
  createMockService,
  type MockService,
  type StubInput,
} from '@profile-articles/mock-server';
import { createHandlers } from '@profile-articles/mock-server/msw';
import { ProfileArticles } from '@profile-articles/sdk';
import { MOCK_BIN } from '@profile-articles/test-utils/mock-bins';
import { TEST_CONFIG } from '@profile-articles/test-utils/mock-harness';
import * as msw from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { normalizeConfig } from '../src/config/config.js';
import { dumpState, loadState } from '../src/data/snapshot.js';
import { createState } from '../src/state/state.js';
import { rawExchange } from './raw-http.js';

type Kind = 'msw' | 'bin';

/** msw 2 (the "msw 2" project) exports graphql from its root; msw 3 does not. */
const MSW_3 = !('graphql' in msw);

/** The bin in a child process with `args`; resolves with its URL once it serves. */
async function spawnBin(args: string[]): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [MOCK_BIN, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk) => (err += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (match) resolve(match[0]);
    });
    child.on('exit', (code) => reject(new Error(`the mock exited (${code}) before serving: ${err}`)));
  });
  return { url, child, stderr: () => err };
}

function configFile(config: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'stubs-')), 'config.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

interface Target {
  baseUrl: string;
  /** Registers a stub the leg's way: POST /_mock/stubs over HTTP, service.stub() in process. */
  stub(input: StubInput): Promise<string>;
  service?: MockService;
  /** A control (or any) request with a JSON body; the answer's JSON parsed. */
  control(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
}

function useTarget(kind: Kind): Target {
  const target = {} as Target;
  let close = async () => {};
  beforeAll(async () => {
    if (kind === 'bin') {
      const { url, child } = await spawnBin(['--config', configFile(TEST_CONFIG)]);
      target.baseUrl = url;
      close = async () => void child.kill('SIGKILL');
      target.stub = async (input) => {
        const answer = await control('POST', '/_mock/stubs', input);
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        return answer.body.id;
      };
    } else {
      const service = createMockService(TEST_CONFIG);
      target.service = service;
      target.baseUrl = 'http://stubs.test';
      const msw = setupServer(...createHandlers(service, { baseUrl: target.baseUrl }));
      msw.listen({ onUnhandledFrame: 'bypass', onUnhandledRequest: 'bypass' } as never);
      close = async () => msw.close();
      target.stub = async (input) => service.stub(input).id;
    }
  });
  afterAll(() => close());
  beforeEach(async () => {
    expect((await control('POST', '/_mock/reset')).status).toBe(200);
  });

  async function control(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${target.baseUrl}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }
  target.control = control;
  return target;
}

const control = (t: Target, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  t.control(method, path, body, headers);

/** One API request; the Response itself, its body unread (a body outcome is read by the test). */
function api(
  t: Target,
  method: string,
  path: string,
  options: { body?: unknown; idem?: string; key?: string } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? 'key-0001'}` };
  if (options.idem) headers['idempotency-key'] = options.idem;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${t.baseUrl}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
}

const generate = (t: Target, profile: string, idem: string, key?: string) =>
  api(t, 'POST', '/api/v1/articles', { body: { profile_id: profile }, idem, ...(key ? { key } : {}) });

async function balance(t: Target, account = 'acme'): Promise<number> {
  const ledger = await control(t, 'GET', '/_mock/ledger');
  return ledger.body.accounts.find((a: { accountId: string }) => a.accountId === account).balance;
}

const jobsOf = async (t: Target) => (await control(t, 'GET', '/_mock/jobs')).body;
const newest = async (t: Target) => (await control(t, 'GET', '/_mock/requests?limit=1')).body.requests[0];
const advance = (t: Target, ms: number) => control(t, 'POST', '/_mock/clock/advance', { ms });

/** A dropped connection: fetch rejects, or msw's undici path hands a Response of status 0. */
async function dropped(answer: Promise<Response>): Promise<boolean> {
  const settled = await answer.then(
    (response) => response.status === 0,
    (error: unknown) => error instanceof TypeError,
  );
  return settled;
}

describe.each<Kind>(['msw', 'bin'])('outcome stubs over %s', (kind) => {
  const t = useTarget(kind);

  it('a stubbed 402 answers before any effect, with the contract text, once (times 1)', async () => {
    const id = await t.stub({ match: { route: 'POST /api/v1/articles' }, outcome: { status: 402 } });
    const answer = await generate(t, 'ada', 'k1');
    expect(answer.status).toBe(402);
    expect(await answer.json()).toEqual({ detail: 'Insufficient credits' });
    expect(await balance(t)).toBe(1000);
    expect((await jobsOf(t)).total).toBe(0);
    expect(await newest(t)).toMatchObject({ status: 402, stubId: id, path: '/api/v1/articles' });
    expect((await control(t, 'GET', '/_mock/stats')).body.stubs).toEqual({ active: 0, matched: 1 });
    // Gone after its one time: the same key now starts the job.
    expect((await generate(t, 'ada', 'k1')).status).toBe(202);
    expect(await balance(t)).toBe(900);
  });

  it("a stubbed 429 carries Retry-After (1 by default) and the stub's detail", async () => {
    await t.stub({ match: { route: 'GET /api/v1/credits' }, outcome: { status: 429 } });
    const first = await api(t, 'GET', '/api/v1/credits');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    await t.stub({ outcome: { status: 429, retryAfterSeconds: 9, detail: 'slow down' } });
    const second = await api(t, 'GET', '/api/v1/credits');
    expect(second.headers.get('retry-after')).toBe('9');
    expect(await second.json()).toEqual({ detail: 'slow down' });
  });

  it('a status the interface does not list for the route is refused, naming outcome.status', async () => {
    const refused = await control(t, 'POST', '/_mock/stubs', {
      match: { route: 'GET /api/v1/credits' },
      outcome: { status: 402 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(['body', 'outcome', 'status']);
    const noRoute = await control(t, 'POST', '/_mock/stubs', { outcome: { status: 404 } });
    expect(noRoute.body.detail[0].loc).toEqual(['body', 'outcome', 'status']);
    const badRate = await control(t, 'POST', '/_mock/stubs', {
      outcome: { body: 'trickle', bytesPerSecond: 0 },
    });
    expect(badRate.status).toBe(422);
    expect(badRate.body.detail[0].loc).toEqual(['body', 'outcome', 'bytesPerSecond']);
    const jobOnRead = await control(t, 'POST', '/_mock/stubs', {
      match: { route: 'GET /api/v1/articles/{profile_id}' },
      outcome: { job: 'fails' },
    });
    expect(jobOnRead.body.detail[0].loc).toEqual(['body', 'match', 'route']);
    // Every status the table lists for checkout, and only those, is accepted there.
    for (const status of [400, 401, 422, 429, 500, 502, 503]) {
      const accepted = await control(t, 'POST', '/_mock/stubs', {
        match: { route: 'POST /api/v1/credits/checkout' },
        outcome: { status },
      });
      expect(accepted.status, String(status)).toBe(201);
    }
    if (t.service) {
      expect(() => t.service!.stub({ outcome: { status: 402 } })).toThrow(ConfigError);
      expect(() => t.service!.stub({ outcome: { status: 402 } })).toThrow('outcome.status');
    }
  });

  it('a failing job is accepted and reserved, then fails with its error and is refunded', async () => {
    await t.stub({ match: { route: 'POST /api/v1/articles' }, outcome: { job: 'fails', error: 'boom' } });
    const started = await generate(t, 'ada', 'k1');
    expect(started.status).toBe(202);
    const job = await started.json();
    expect(await balance(t)).toBe(900);
    await advance(t, 5000);
    const ended = await (await api(t, 'GET', `/api/v1/jobs/${job.job_id}`)).json();
    expect(ended).toMatchObject({ status: 'failed', error: 'boom', credits_charged: 0 });
    expect(await balance(t)).toBe(1000);
  });

  it('a stuck job stays queued until the queued timeout cancels it, refunded', async () => {
    await t.stub({ match: { route: 'POST /api/v1/articles', profileId: 'ada' }, outcome: { job: 'stuck' } });
    const job = await (await generate(t, 'ada', 'k1')).json();
    await advance(t, 29 * 60_000);
    expect((await (await api(t, 'GET', `/api/v1/jobs/${job.job_id}`)).json()).status).toBe('queued');
    await advance(t, 60_000);
    expect((await (await api(t, 'GET', `/api/v1/jobs/${job.job_id}`)).json()).status).toBe('cancelled');
    expect(await balance(t)).toBe(1000);
  });

  it("a job's timings come from the stub", async () => {
    await t.stub({
      match: { route: 'POST /api/v1/articles/{profile_id}/update' },
      outcome: { job: { queuedMs: 100, runningMs: 200 } },
    });
    await generate(t, 'ada', 'k1');
    await advance(t, 5000);
    const job = await (await api(t, 'POST', '/api/v1/articles/ada/update', { idem: 'k2' })).json();
    await advance(t, 100);
    expect((await (await api(t, 'GET', `/api/v1/jobs/${job.job_id}`)).json()).status).toBe('running');
    await advance(t, 200);
    expect((await (await api(t, 'GET', `/api/v1/jobs/${job.job_id}`)).json()).status).toBe('succeeded');
  });

  it('a lost answer takes its full effect; a retry with the same key replays it, charged once', async () => {
    const id = await t.stub({ match: { idempotencyKey: 'k1' }, outcome: { lost: true } });
    const lost = await generate(t, 'ada', 'k1');
    expect(lost.status).toBe(500);
    expect((await lost.json()).detail).toMatch(/took effect/);
    expect(await balance(t)).toBe(900);
    expect(await newest(t)).toMatchObject({ status: 500, stubId: id });
    const retried = await generate(t, 'ada', 'k1');
    expect(retried.status).toBe(202);
    expect(await balance(t)).toBe(900);
    expect((await jobsOf(t)).total).toBe(1);
  });

  it('a stubbed status does not answer a key its account used before: the replay does, as the service answers a key before any rule', async () => {
    await t.stub({ match: { idempotencyKey: 'k1' }, outcome: { lost: true }, times: 1, priority: 1 });
    await t.stub({ match: { route: 'POST /api/v1/articles' }, outcome: { status: 409 }, times: 1 });
    expect((await generate(t, 'ada', 'k1')).status).toBe(500);
    // The replay, not the stub: the same job, charged once.
    const replay = await generate(t, 'ada', 'k1');
    expect(replay.status).toBe(202);
    expect(await balance(t)).toBe(900);
    expect((await jobsOf(t)).total).toBe(1);
    // The key for another profile is a mismatch, answered as the service answers it.
    const mismatch = await generate(t, 'grace', 'k1');
    expect(mismatch.status).toBe(409);
    expect((await mismatch.json()).detail).toMatch(/already used/);
    // A new key still meets the stub.
    const fresh = await generate(t, 'grace', 'k2');
    expect(fresh.status).toBe(409);
    expect((await fresh.json()).detail).not.toMatch(/already used/);
    expect(await balance(t)).toBe(900);
  });

  it('reset before drops the connection with no effect; reset after, after the full effect', async () => {
    await t.stub({ match: { route: 'POST /api/v1/articles' }, outcome: { reset: 'before' } });
    expect(await dropped(generate(t, 'ada', 'k1'))).toBe(true);
    expect(await balance(t)).toBe(1000);
    expect(await newest(t)).toMatchObject({ status: 0 });
    await t.stub({ match: { route: 'POST /api/v1/articles' }, outcome: { reset: 'after' } });
    expect(await dropped(generate(t, 'ada', 'k2'))).toBe(true);
    expect(await balance(t)).toBe(900);
  });

  it('latencyMs: the normal answer, that much real time later', async () => {
    await t.stub({ outcome: { latencyMs: 300 } });
    const started = Date.now();
    const answer = await api(t, 'GET', '/api/v1/credits');
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('trickle: the normal answer, its body in chunks over time at the rate', async () => {
    await t.stub({
      match: { route: 'GET /api/v1/articles/{profile_id}' },
      outcome: { body: 'trickle', bytesPerSecond: 1000 },
    });
    await generate(t, 'ada', 'k1');
    await advance(t, 5000);
    const started = Date.now();
    const answer = await api(t, 'GET', '/api/v1/articles/ada');
    expect(answer.status).toBe(200);
    const times: number[] = [];
    const parts: Uint8Array[] = [];
    const reader = answer.body!.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      times.push(Date.now() - started);
      parts.push(next.value);
    }
    const bytes = parts.reduce((sum, part) => sum + part.length, 0);
    // Through msw too the chunks come one by one: msw hands the handler's stream to fetch as read.
    expect(times.length).toBeGreaterThan(3);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(((bytes - 200) / 1000) * 1000 * 0.8);
    const text = Buffer.concat(parts).toString('utf8');
    expect(JSON.parse(text)).toMatchObject({ credits_charged: 1 });
    expect(await balance(t)).toBe(899);
  });

  it('malformed: the normal status and JSON type, a body that is not JSON, the effect applied', async () => {
    await t.stub({ match: { route: 'POST /api/v1/articles' }, outcome: { body: 'malformed' } });
    const answer = await generate(t, 'ada', 'k1');
    expect(answer.status).toBe(202);
    expect(answer.headers.get('content-type')).toContain('application/json');
    const text = await answer.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow();
    expect(await balance(t)).toBe(900);
  });

  it('empty: the normal status, no body, the effect applied', async () => {
    await t.stub({ match: { route: 'GET /api/v1/credits' }, outcome: { body: 'empty' } });
    const answer = await api(t, 'GET', '/api/v1/credits');
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('');
    await t.stub({ match: { route: 'POST /api/v1/articles' }, outcome: { body: 'empty' } });
    const started = await generate(t, 'ada', 'k1');
    expect(started.status).toBe(202);
    expect(await started.text()).toBe('');
    expect((await jobsOf(t)).total).toBe(1);
  });

  it('after authentication and the rate limit: a 401 stays a 401, a stubbed request counts', async () => {
    await t.stub({ outcome: { status: 500 }, times: null });
    expect((await api(t, 'GET', '/api/v1/credits', { key: 'nobody' })).status).toBe(401);
    expect((await control(t, 'GET', '/_mock/stubs')).body.stubs[0].matched).toBe(0);
    // key-limited has 3 requests a minute: three stubbed answers, then the rate limit's own 429.
    for (let i = 0; i < 3; i++)
      expect((await api(t, 'GET', '/api/v1/credits', { key: 'key-limited' })).status).toBe(500);
    const refused = await api(t, 'GET', '/api/v1/credits', { key: 'key-limited' });
    expect(refused.status).toBe(429);
    expect((await refused.json()).detail).toMatch(/Rate limit of 3/);
  });

  it('matches on route, profile, account and key; priority wins, then the newest; times null answers all', async () => {
    await t.stub({ match: { account: 'other' }, outcome: { status: 401 }, times: null });
    await t.stub({ match: { profileId: 'grace' }, outcome: { status: 422 }, times: null });
    const low = await t.stub({ outcome: { status: 500, detail: 'low' }, times: 2, priority: -1 });
    expect((await api(t, 'GET', '/api/v1/credits', { key: 'key-other' })).status).toBe(401);
    expect((await api(t, 'GET', '/api/v1/articles/grace')).status).toBe(422);
    // Neither the account nor the profile stub fits acme's balance: the low-priority catch-all does.
    expect((await api(t, 'GET', '/api/v1/credits')).status).toBe(500);
    const first = await t.stub({ outcome: { status: 500, detail: 'first' }, times: null });
    await t.stub({ outcome: { status: 500, detail: 'newer' }, times: null });
    expect(await (await api(t, 'GET', '/api/v1/credits')).json()).toEqual({ detail: 'newer' });
    await t.stub({ outcome: { status: 500, detail: 'high' }, priority: 5 });
    expect(await (await api(t, 'GET', '/api/v1/credits')).json()).toEqual({ detail: 'high' });
    expect(await (await api(t, 'GET', '/api/v1/credits')).json()).toEqual({ detail: 'newer' });
    const listed = (await control(t, 'GET', '/_mock/stubs')).body.stubs;
    expect(listed.map((s: { outcome: { detail?: string } }) => s.outcome.detail)).toEqual([
      'newer',
      'first',
      'low',
      undefined,
      undefined,
    ]);
    expect(listed.find((s: { id: string }) => s.id === low)).toMatchObject({ times: 1, matched: 1 });
    expect(listed[0]).toMatchObject({ times: null, matched: 2, priority: 0 });
    expect((await control(t, 'DELETE', `/_mock/stubs/${first}`)).status).toBe(204);
    const unknown = await control(t, 'DELETE', '/_mock/stubs/stub_999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain('stub_999');
    expect((await control(t, 'DELETE', '/_mock/stubs')).status).toBe(204);
    expect((await control(t, 'GET', '/_mock/stubs')).body.stubs).toEqual([]);
    expect((await api(t, 'GET', '/api/v1/credits')).status).toBe(200);
  });

  it('POST /_mock/reset removes every stub', async () => {
    await t.stub({ outcome: { status: 500 }, times: null });
    await control(t, 'POST', '/_mock/reset');
    expect((await control(t, 'GET', '/_mock/stubs')).body.stubs).toEqual([]);
    expect((await control(t, 'GET', '/_mock/stats')).body.stubs).toEqual({ active: 0, matched: 0 });
  });

  it('the control endpoints never meet a stub; only /api/v1 does', async () => {
    await t.stub({ outcome: { status: 500 }, times: null });
    expect((await control(t, 'GET', '/_mock/ledger')).status).toBe(200);
    expect((await control(t, 'GET', '/')).status).toBe(200);
  });

  // Through msw 3, a fetch aborted while a mocked body still streams ends in an uncaught
  // assertion inside Node's fetch once msw writes the body's end to the closed request
  // (mswjs/interceptors#693); docs/mock-server.md says so. Over HTTP and through msw 2 it is a
  // plain TimeoutError.
  it.skipIf(kind === 'msw' && MSW_3)(
    `a trickled body outlasts the SDK timeout over ${kind}: a TimeoutError`,
    async () => {
      await t.stub({
        match: { route: 'GET /api/v1/credits' },
        outcome: { body: 'trickle', bytesPerSecond: 20 },
        times: null,
      });
      const client = new ProfileArticles({
        apiKey: 'key-0001',
        baseUrl: t.baseUrl,
        timeoutMs: 500,
        maxRetries: 0,
      });
      const error = await client.credits.balance().catch((e: unknown) => e);
      expect((error as Error).name).toBe('TimeoutError');
    },
  );
});

describe('the bin, a client that leaves a trickled body', () => {
  it('ends the body quietly: no bare error line on the mock’s stderr, and it serves on', async () => {
    const { url, child, stderr } = await spawnBin([]);
    try {
      const stub = await fetch(`${url}/_mock/stubs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          match: { route: 'GET /api/v1/credits' },
          outcome: { body: 'trickle', bytesPerSecond: 5 },
        }),
      });
      expect(stub.status).toBe(201);
      const leaving = new AbortController();
      const answer = await fetch(`${url}/api/v1/credits`, {
        headers: { authorization: 'Bearer demo-key' },
        signal: leaving.signal,
      });
      const reader = answer.body!.getReader();
      await reader.read();
      leaving.abort();
      // The mock's next answer comes after it has seen the connection close.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await fetch(`${url}/api/v1/credits`, { headers: { authorization: 'Bearer demo-key' } });
      expect(after.status).toBe(200);
      await after.json();
      expect(stderr()).not.toMatch(/aborted|Error/);
    } finally {
      child.kill();
    }
  });
});

describe('in process', () => {
  it('service.stub() answers a handle: its id, matched() and remove(); stubs() and clearStubs()', async () => {
    const service = createMockService(TEST_CONFIG);
    const credits = () =>
      service.handle(
        new Request('http://x/api/v1/credits', { headers: { authorization: 'Bearer key-0001' } }),
      );
    const handle = service.stub({ outcome: { status: 500 }, times: 2 });
    expect(handle.id).toMatch(/^stub_/);
    expect((await credits()).status).toBe(500);
    expect(handle.matched()).toBe(1);
    expect(service.stubs()).toEqual([expect.objectContaining({ id: handle.id, times: 1, matched: 1 })]);
    handle.remove();
    expect(service.stubs()).toEqual([]);
    expect((await credits()).status).toBe(200);
    const gone = service.stub({ outcome: { status: 500 } });
    expect((await credits()).status).toBe(500);
    // Its count outlives it.
    expect(gone.matched()).toBe(1);
    service.stub({ outcome: { status: 500 }, times: null });
    service.clearStubs();
    expect((await credits()).status).toBe(200);
    expect(service.stats().stubs).toEqual({ active: 0, matched: 2 });
  });
});

describe("a stubbed failing job in --data's snapshot", () => {
  it('keeps its failure through a dump and a load, and fails refunded after it', () => {
    const config = normalizeConfig(TEST_CONFIG);
    let n = 0;
    const newId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    const before = createState(config, newId);
    const started = before.jobs.start({
      accountId: 'acme',
      profileId: 'ada',
      kind: 'generate',
      idempotencyKey: 'k1',
      credits: 100,
      queuedTimeoutMs: 30 * 60_000,
      at: 0,
      failure: 'stubbed boom',
    })!;
    const snapshot = JSON.parse(
      JSON.stringify(
        dumpState(before, {
          generation: 1,
          ids: { seed: 's', counter: n, epoch: 0 },
          clock: { offset: 0, latest: 0 },
        }),
      ),
    );
    const after = createState(config, newId);
    loadState(after, snapshot);
    after.scheduler.runDue(10_000);
    const { job } = after.jobs.get(started.job.job_id)!;
    expect(job).toMatchObject({ status: 'failed', error: 'stubbed boom', credits_charged: 0 });
    expect(after.ledger.balance('acme')).toBe(1000);
  });
});

describe('the bin', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  it('guards /_mock/stubs with the admin token and the Host check, as every control endpoint', async () => {
    const { url, child } = await spawnBin([
      '--config',
      configFile({ ...TEST_CONFIG, adminToken: 'admin-secret-1' }),
    ]);
    children.push(child);
    const body = JSON.stringify({ outcome: { status: 500 } });
    const post = (headers: Record<string, string>) =>
      fetch(`${url}/_mock/stubs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    expect((await post({})).status).toBe(401);
    expect((await fetch(`${url}/_mock/stubs`)).status).toBe(401);
    expect(
      (await post({ authorization: 'Bearer admin-secret-1', origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect((await post({ authorization: 'Bearer admin-secret-1' })).status).toBe(201);
    // A Host this mock does not serve (DNS rebinding) is refused before the admin token is read.
    const port = Number(new URL(url).port);
    const rebound = await rawExchange(
      port,
      'GET /_mock/stubs HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer admin-secret-1\r\nConnection: close\r\n\r\n',
    );
    expect(rebound.status).toBe(421);
  });

  it('--data keeps no stub across a restart, and a stubbed failing job still fails after one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stubs-data-'));
    const args = ['--config', configFile(TEST_CONFIG), '--data', join(dir, 'state')];
    const first = await spawnBin(args);
    const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer key-0001', ...headers },
        body: JSON.stringify(body),
      });
    expect(
      (
        await post(first.url, '/_mock/stubs', {
          match: { route: 'POST /api/v1/articles' },
          outcome: { job: 'fails', error: 'stubbed boom' },
        })
      ).status,
    ).toBe(201);
    await post(first.url, '/_mock/stubs', { outcome: { status: 500 }, times: null, priority: -5 });
    const job = await (
      await post(first.url, '/api/v1/articles', { profile_id: 'ada' }, { 'idempotency-key': 'k1' })
    ).json();
    expect(job.status).toBe('queued');
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await spawnBin(args);
    children.push(second.child);
    expect(await (await fetch(`${second.url}/_mock/stubs`)).json()).toEqual({ stubs: [] });
    await post(second.url, '/_mock/clock/advance', { ms: 10_000 });
    const ended = await (
      await fetch(`${second.url}/api/v1/jobs/${job.job_id}`, {
        headers: { authorization: 'Bearer key-0001' },
      })
    ).json();
    expect(ended).toMatchObject({ status: 'failed', error: 'stubbed boom', credits_charged: 0 });
  });
});
