// verify against deliberately drifted servers: a proxy rewrites the real mock's answers.
// Each drift must give exit 1 and a failed check naming the endpoint and the difference.
import { describe, expect, it } from 'vitest';
import { type Drift, failedChecks, KEY, seedArticle, startMock, verifyJson } from './harness.js';

const json = (body: unknown, status: number, headers: HeadersInit = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** Every Article in a body gets `title` renamed to `headline`. */
function renameTitle(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renameTitle);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([key, inner]) => [key, renameTitle(inner)] as const);
  const object = Object.fromEntries(entries);
  if ('article_id' in object && 'title' in object) {
    object.headline = object.title;
    delete object.title;
  }
  return object;
}

const drifts: Record<string, Drift> = {
  renamedArticleField: async (_request, response) => {
    if (!response.headers.get('content-type')?.includes('json')) return response;
    return json(renameTitle(await response.json()), response.status);
  },
  serverErrorForMissingJob: (request, response) => {
    if (!new URL(request.url).pathname.startsWith('/api/v1/jobs/') || response.status !== 404)
      return response;
    // A careless server that echoes the request: the key must still never be printed.
    return json({ detail: `internal error for ${request.headers.get('authorization')}` }, 500);
  },
  chargeForMissingArticle: (request, response, service) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'GET' && path.startsWith('/api/v1/articles/') && response.status === 404) {
      service.state().ledger.take('acme', 1, 'charge', { reason: 'read', profileId: path }, service.now());
    }
    return response;
  },
  noRetryAfter: (_request, response) => {
    if (response.status !== 429) return response;
    const headers = new Headers(response.headers);
    headers.delete('retry-after');
    return new Response(response.body, { status: 429, headers });
  },
  okWithoutKey: async (request, response, service) => {
    if (request.headers.has('authorization') || !new URL(request.url).pathname.startsWith('/api/v1/'))
      return response;
    const headers = new Headers(request.headers);
    headers.set('authorization', `Bearer ${KEY}`);
    // From its parts: the node adapter hands over @hono/node-server's own Request, which the
    // global Request constructor (Node's: the mock leaves it in place) does not take as input.
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.text();
    return service.handle(new Request(request.url, { method: request.method, headers, body }));
  },
};

const PAID = ['--spend', '1000', '--profile', 'ada-lovelace'];

async function runDrifted(drift: Drift, args: string[]) {
  const server = await startMock(drift);
  await seedArticle(server, 'ada-lovelace');
  const run = await verifyJson(server, args);
  expect(run.code).toBe(1);
  expect(run.stdout + run.stderr).not.toContain(KEY);
  return failedChecks(run.report);
}

describe('verify names the drift', () => {
  it('(a) a renamed Article field', async () => {
    const failed = await runDrifted(drifts.renamedArticleField!, PAID);
    const read = failed.find((check) => check.id === 'read.existing');
    expect(read).toMatchObject({ endpoint: 'GET /api/v1/articles/{profile_id}' });
    expect(read?.expected).toContain('article.title');
    expect(read?.got).toBe('article.title: missing');
  });

  it('(b) 500 instead of 404 for a missing job', async () => {
    const failed = await runDrifted(drifts.serverErrorForMissingJob!, []);
    expect(failed).toEqual([
      expect.objectContaining({
        id: 'jobs.missing-404',
        endpoint: 'GET /api/v1/jobs/{job_id}',
        expected: 'status 404',
        got: expect.stringMatching(/^500 .*\[redacted\]/),
      }),
    ]);
  });

  it('(c) a credit charged for a missing article', async () => {
    const failed = await runDrifted(drifts.chargeForMissingArticle!, PAID);
    expect(failed).toEqual([
      expect.objectContaining({
        id: 'read.missing.balance',
        endpoint: 'GET /api/v1/articles/{profile_id}',
        expected: 'the balance to fall by 0',
        got: 'the balance fell by 1',
      }),
    ]);
  });

  it('(d) no Retry-After on a 429', async () => {
    const failed = await runDrifted(drifts.noRetryAfter!, ['--check-rate-limit']);
    expect(failed).toEqual([
      expect.objectContaining({
        id: 'rate-limit.retry-after',
        endpoint: 'GET /api/v1/credits',
        expected: 'a Retry-After header of whole seconds',
        got: 'no Retry-After',
      }),
    ]);
  });

  it('(e) 200 to a request without a key', async () => {
    const failed = await runDrifted(drifts.okWithoutKey!, []);
    const balance = failed.find((check) => check.id === 'auth.getBalance.no-key');
    expect(balance).toMatchObject({ endpoint: 'GET /api/v1/credits', expected: 'status 401' });
    expect(balance?.got).toMatch(/^200 /);
    expect(failed.every((check) => check.id.endsWith('.no-key'))).toBe(true);
  });

  it('(e) a server that ignores auth cannot make the 401 probes spend beyond --spend 0', async () => {
    const server = await startMock(drifts.okWithoutKey!);
    const before = server.service.balance('acme');
    const run = await verifyJson(server, []);
    expect(run.code).toBe(1);
    expect(server.service.balance('acme')).toBe(before);
    expect(run.report.credits_spent).toBe(before - server.service.balance('acme'));
  });

  it('(e) a charge a 401 probe did cause is counted in the credits spent', async () => {
    // Worse than (e): without a key every request is taken, and every one costs a credit.
    const server = await startMock(async (request, response, service) => {
      const answer = await drifts.okWithoutKey!(request, response, service);
      if (!request.headers.has('authorization') && new URL(request.url).pathname.startsWith('/api/v1/'))
        service.state().ledger.take('acme', 1, 'charge', { reason: 'read', profileId: 'x' }, service.now());
      return answer;
    });
    const before = server.service.balance('acme');
    const run = await verifyJson(server, []);
    expect(run.code).toBe(1);
    expect(before - server.service.balance('acme')).toBeGreaterThan(0);
    expect(run.report.credits_spent).toBe(before - server.service.balance('acme'));
  });
});
