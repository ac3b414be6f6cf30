import { startMockServer } from '@profile-articles/mock-server';
import { TEST_CONFIG, type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { startMock } from '@profile-articles/test-utils/start-mock';
import { describe, expect, it } from 'vitest';

describe.each<TransportKind>(['http', 'msw'])('fault injection over %s', (kind) => {
  const h = useMock(kind);
  const setFaults = (body: unknown) => h.call('PUT', '/_mock/faults', { body });
  const generate = (key: string) =>
    h.call('POST', '/api/v1/articles', { body: { profile_id: 'ada' }, idempotencyKey: key });
  const balance = () => h.service.ledger().accounts.find((a) => a.accountId === 'acme')!.balance;

  it('fail: 500 before any effect', async () => {
    expect((await setFaults({ rules: [{ kind: 'fail', probability: 1 }] })).status).toBe(200);
    const answer = await generate('k1');
    expect(answer.status).toBe(500);
    expect(answer.body.detail).toMatch(/nothing was done/);
    expect(balance()).toBe(1000);
    expect(h.service.state().jobs.size).toBe(0);
    // The control endpoints never fail.
    expect((await h.call('GET', '/_mock/ledger')).status).toBe(200);
  });

  it('lost: the request takes effect, then 500; a retry with the same key replays it', async () => {
    await setFaults({ rules: [{ kind: 'lost', route: 'POST /api/v1/articles', probability: 1 }] });
    expect((await generate('k1')).status).toBe(500);
    expect(balance()).toBe(900);
    expect((await h.call('DELETE', '/_mock/faults')).body).toEqual({ seed: 1, rules: [] });
    const retried = await generate('k1');
    expect(retried.status).toBe(202);
    expect(balance()).toBe(900);
    expect(h.service.state().jobs.size).toBe(1);
  });

  it('reset: the request takes effect, then the connection drops', async () => {
    await setFaults({ rules: [{ kind: 'reset', probability: 1 }] });
    // No answer: over node:http the socket is destroyed, so fetch rejects; msw answers its
    // network error, which its fetch interceptor rejects and its undici one hands over as
    // a Response of status 0, depending on which caught the call.
    const answer = await generate('k1').catch((error: unknown) => error);
    if (answer instanceof TypeError) expect(answer.message).toMatch(/fetch failed|Failed to fetch/);
    else expect((answer as { status: number }).status).toBe(0);
    expect(balance()).toBe(900);
    expect(h.service.journal()[0]).toMatchObject({ path: '/api/v1/articles', status: 0 });
    await h.call('DELETE', '/_mock/faults');
    expect((await h.call('GET', '/api/v1/credits')).body.credits).toBe(900);
  });

  it('rate-limit: a spurious 429 with Retry-After, counted for the account, no effect', async () => {
    await setFaults({ rules: [{ kind: 'rate-limit', probability: 1, retryAfterSeconds: 7 }] });
    const answer = await generate('k1');
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(balance()).toBe(1000);
    expect(h.service.stats().accounts.acme).toEqual({ rateLimited: 0, injected429: 1 });
    expect(h.service.stats().faults['rate-limit']).toBe(1);
  });

  it('latency: real time before the request is served', async () => {
    await setFaults({ rules: [{ kind: 'latency', probability: 1, latencyMs: 150 }] });
    const started = Date.now();
    expect((await h.call('GET', '/api/v1/credits')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('applies per route only, and replays from its seed', async () => {
    await setFaults({ rules: [{ kind: 'fail', route: 'GET /api/v1/credits', probability: 1 }] });
    expect((await h.call('GET', '/api/v1/credits')).status).toBe(500);
    expect((await h.call('GET', '/api/v1/articles/ada')).status).toBe(404);

    const run = async () => {
      await setFaults({ seed: 42, rules: [{ kind: 'fail', probability: 0.5 }] });
      const statuses = [];
      for (let i = 0; i < 20; i++) statuses.push((await h.call('GET', '/api/v1/credits')).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await run()).toEqual(first);
  });

  /** A raw request: a body fault's answer is not JSON, which h.call would refuse. */
  const raw = (path: string) =>
    fetch(`${h.baseUrl}${path}`, { headers: { authorization: 'Bearer key-0001' } });

  it('trickle: the answer and its effect, its body in chunks over time', async () => {
    await setFaults({
      rules: [{ kind: 'trickle', route: 'GET /api/v1/credits', probability: 1, bytesPerSecond: 500 }],
    });
    const started = Date.now();
    const answer = await raw('/api/v1/credits');
    expect(answer.status).toBe(200);
    const reader = answer.body!.getReader();
    const parts: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
    // Through msw (2 and 3) the chunks arrive one by one as well: msw does not buffer the stream.
    expect(parts.length).toBeGreaterThan(3);
    const bytes = parts.reduce((sum, part) => sum + part.length, 0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(((bytes - 50) / 500) * 1000 * 0.8);
    expect(JSON.parse(Buffer.concat(parts).toString('utf8')).credits).toBe(1000);
    expect(h.service.stats().faults.trickle).toBe(1);
  });

  it("malformed and empty: the answer's status, a body that is not JSON or none, the effect applied", async () => {
    await setFaults({ rules: [{ kind: 'malformed', route: 'POST /api/v1/articles', probability: 1 }] });
    const malformed = await fetch(`${h.baseUrl}/api/v1/articles`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer key-0001',
        'content-type': 'application/json',
        'idempotency-key': 'k1',
      },
      body: JSON.stringify({ profile_id: 'ada' }),
    });
    expect(malformed.status).toBe(202);
    expect(malformed.headers.get('content-type')).toContain('application/json');
    const text = await malformed.text();
    expect(text).not.toBe('');
    expect(() => JSON.parse(text)).toThrow();
    expect(balance()).toBe(900);
    await setFaults({ rules: [{ kind: 'empty', route: 'GET /api/v1/credits', probability: 1 }] });
    const empty = await raw('/api/v1/credits');
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('');
  });

  it('latency from a uniform or a lognormal distribution, drawn from the seed', async () => {
    const run = async (rule: Record<string, unknown>) => {
      await setFaults({ seed: 9, rules: [{ kind: 'latency', probability: 1, ...rule }] });
      const delays: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        expect((await raw('/api/v1/credits')).status).toBe(200);
        delays.push(Date.now() - started);
      }
      return delays;
    };
    for (const delay of await run({ distribution: 'uniform', minMs: 60, maxMs: 120 }))
      expect(delay).toBeGreaterThanOrEqual(55);
    const refused = await setFaults({
      rules: [{ kind: 'latency', probability: 1, distribution: 'lognormal' }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(['body', 'rules', 0, 'medianMs']);
    expect(
      (
        await setFaults({
          rules: [{ kind: 'latency', probability: 1, distribution: 'lognormal', medianMs: 20, sigma: 0.5 }],
        })
      ).status,
    ).toBe(200);
  });

  it('refuses a bad faults body with 422 naming the field', async () => {
    const answer = await setFaults({ rules: [{ kind: 'explode', probability: 2 }] });
    expect(answer.status).toBe(422);
    const locs = answer.body.detail.map((issue: any) => issue.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.rules.0.kind', 'body.rules.0.probability']));
    const sum = await setFaults({
      rules: [
        { kind: 'fail', probability: 0.6 },
        { kind: 'lost', route: 'GET /api/v1/credits', probability: 0.6 },
      ],
    });
    expect(sum.status).toBe(422);
    expect(sum.body.detail[0].msg).toMatch(/add up to more than 1/);
  });
});

// msw 3 wraps the global Response when it starts listening. An HTTP mock that had replaced it
// before (as @hono/node-server does unless told not to) made msw take a reset's network error
// for an answer of status 0, which it could not write: the request hung.
it('an HTTP mock leaves the global Request and Response alone, so msw after it still drops a reset', async () => {
  const { Request: request, Response: response } = globalThis;
  const server = await startMockServer({ port: 0, config: TEST_CONFIG });
  const answered = await fetch(`${server.url}/_mock/faults`, { method: 'DELETE' });
  expect(answered.status).toBe(200);
  await server.close();
  expect(globalThis.Request).toBe(request);
  expect(globalThis.Response).toBe(response);

  const mock = await startMock('msw', TEST_CONFIG);
  try {
    mock.service.setFaults({ rules: [{ kind: 'reset', probability: 1 }] });
    const dropped = await fetch(`${mock.baseUrl}/api/v1/credits`, {
      headers: { authorization: 'Bearer key-0001' },
    }).catch((error: unknown) => error);
    // As in the reset test above: fetch rejects, or msw 2's undici interceptor answers status 0.
    if (dropped instanceof TypeError) expect(dropped.message).toMatch(/fetch failed|Failed to fetch/);
    else expect((dropped as Response).status).toBe(0);
  } finally {
    await mock.close();
  }
});
