// The dashboard's data over plain HTTP: the paged views of jobs, checkouts and the ledger, the
// event stream that says when they changed, and the admin token's reach (the page without it,
// its data only with it).
import { TEST_CONFIG, useMock } from '@profile-articles/test-utils/mock-harness';
import { describe, expect, it } from 'vitest';

/** Reads server-sent events from a stream until `until` says stop; gives every event's name. */
async function readEvents(response: Response, until: (events: string[]) => boolean): Promise<string[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: string[] = [];
  let buffer = '';
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const name = /^event: (.*)$/m.exec(buffer.slice(0, end))?.[1];
      if (name) events.push(name);
      buffer = buffer.slice(end + 2);
    }
  }
  await reader.cancel();
  return events;
}

describe('the dashboard views over HTTP', () => {
  const h = useMock('http');
  const control = (path: string) => h.call('GET', path, { key: null });

  it('pages jobs newest first, filters them, and says when each next moves on', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const started = await h.call('POST', '/api/v1/articles', {
        body: { profile_id: `p-${i}` },
        idempotencyKey: `k-${i}`,
      });
      ids.push(started.body.job_id);
    }
    const first = await control('/_mock/jobs?limit=2');
    expect(first.body).toMatchObject({ total: 5, offset: 0, limit: 2 });
    expect(first.body.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([ids[4], ids[3]]);
    expect(first.body.jobs[0]).toMatchObject({
      accountId: 'acme',
      profileId: 'p-4',
      kind: 'generate',
      status: 'queued',
    });
    expect(Date.parse(first.body.jobs[0].nextAt)).toBeGreaterThan(Date.parse(first.body.jobs[0].startedAt));
    const last = await control('/_mock/jobs?limit=2&offset=4');
    expect(last.body.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([ids[0]]);
    expect((await control('/_mock/jobs?offset=9')).body.jobs).toEqual([]);
    await h.advance(60_000);
    const done = await control('/_mock/jobs?status=succeeded&account=acme');
    expect(done.body.total).toBe(5);
    expect(done.body.jobs.every((j: { nextAt: unknown }) => j.nextAt === null)).toBe(true);
    expect((await control('/_mock/jobs?account=other')).body.total).toBe(0);
    for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'page=2'])
      expect((await control(`/_mock/jobs?${query}`)).status, query).toBe(422);
  });

  it('lists pending checkouts and pages the ledger newest first', async () => {
    const a = await h.call('POST', '/api/v1/credits/checkout', { body: { credits: 100 } });
    const b = await h.call('POST', '/api/v1/credits/checkout', { body: { credits: 200 } });
    await h.call('POST', `/_mock/checkout/${a.body.session_id}/complete`, { key: null });
    const pending = await control('/_mock/checkouts?status=pending');
    expect(pending.body.checkouts).toEqual([
      { sessionId: b.body.session_id, accountId: 'acme', credits: 200, amountCents: 1000, status: 'pending' },
    ]);
    expect((await control('/_mock/checkouts')).body.total).toBe(2);
    expect((await control('/_mock/checkouts?status=open')).status).toBe(422);
    await h.call('GET', '/api/v1/articles/nobody'); // 404: no charge
    await h.call('POST', '/api/v1/articles', { body: { profile_id: 'x' }, idempotencyKey: 'k' });
    const page = await control('/_mock/ledger?limit=1');
    expect(page.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['reservation']);
    const all = await control('/_mock/ledger');
    expect(all.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['purchase', 'reservation']);
  });

  it('streams a change event at once, and another when a request moves something', async () => {
    const response = await fetch(`${h.baseUrl}/_mock/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    // One at once (the state as it is), then one for the request made after it.
    const events = readEvents(response, (seen) => seen.length >= 2);
    await new Promise((resolve) => setImmediate(resolve));
    await h.call('GET', '/api/v1/credits');
    expect(await events).toEqual(['change', 'change']);
  });
});

describe('the dashboard with an admin token', () => {
  const h = useMock('http', { ...TEST_CONFIG, adminToken: 'admin-token-1' });

  it('serves the page and its files without the token, and its data and events only with it', async () => {
    for (const path of ['/_mock/', '/_mock/dashboard.js', '/_mock/dashboard.css']) {
      const answer = await fetch(`${h.baseUrl}${path}`);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-security-policy'), path).toContain("default-src 'none'");
      expect(await answer.text(), path).not.toContain('admin-token-1');
    }
    const bare = await fetch(`${h.baseUrl}/_mock`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/_mock/']);
    for (const path of [
      '/_mock/events',
      '/_mock/jobs',
      '/_mock/checkouts',
      '/_mock/requests',
      '/_mock/stats',
    ]) {
      expect((await fetch(`${h.baseUrl}${path}`)).status, path).toBe(401);
      const admin = await fetch(`${h.baseUrl}${path}`, {
        headers: { authorization: 'Bearer admin-token-1' },
      });
      expect(admin.status, path).toBe(200);
      await admin.body?.cancel();
    }
  });
});
