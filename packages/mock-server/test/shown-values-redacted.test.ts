// A key sent by mistake where a value goes (a profile id, an Idempotency-Key) or the admin
// token: what the mock shows of requests and jobs (/_mock/requests, /_mock/jobs, the ledger,
// the dashboard that reads them, --log) has every configured key and the admin token redacted;
// journal.log keeps the values as sent (a replay needs them; the file is the owner's alone).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockBin } from '@profile-articles/test-utils/mock-bins';
import { TEST_CONFIG, type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { describe, expect, it } from 'vitest';

const ADMIN = 'admin-token-0042';
const OTHER_KEY = 'key-other';
const SECRETS = ['key-0001', 'key-0002', OTHER_KEY, 'key-poor', 'key-limited', ADMIN];

describe.each<TransportKind>(['http', 'msw'])('what the mock shows, over %s', (kind) => {
  const h = useMock(kind, { ...TEST_CONFIG, adminToken: ADMIN });
  const admin = { key: ADMIN };

  it('redacts a key sent as a profile id and as an Idempotency-Key, and the admin token, in every view', async () => {
    // Another account's key as the profile id and the Idempotency-Key; the admin token as a key too.
    expect(
      (
        await h.call('POST', '/api/v1/articles', {
          body: { profile_id: OTHER_KEY },
          idempotencyKey: OTHER_KEY,
        })
      ).status,
    ).toBe(202);
    await h.call('POST', '/api/v1/articles', { body: { profile_id: 'ada-lovelace' }, idempotencyKey: ADMIN });
    await h.call('GET', `/api/v1/articles/${ADMIN}`);
    for (const view of [
      '/_mock/requests',
      '/_mock/jobs',
      '/_mock/ledger',
      '/_mock/checkouts',
      '/_mock/stats',
    ]) {
      const answer = await h.call('GET', view, admin);
      expect(answer.status, view).toBe(200);
      const text = JSON.stringify(answer.body);
      for (const secret of SECRETS) expect(text, `${view} shows ${secret}`).not.toContain(secret);
      if (view !== '/_mock/stats' && view !== '/_mock/checkouts') expect(text, view).toContain('[redacted]');
    }
    // A filter still finds the request by the value it was sent with.
    const found = await h.call('GET', `/_mock/requests?idempotency_key=${OTHER_KEY}`, admin);
    expect(found.body.requests).toHaveLength(1);
    expect(found.body.requests[0].idempotencyKey).toBe('[redacted]');
  });
});

describe('--data and --log', () => {
  it('keeps the values as sent in journal.log, and --log redacts the admin token and every key', async () => {
    const data = mkdtempSync(join(tmpdir(), 'shown-values-'));
    const mock = startMockBin('profile-articles-mock', ['--port', '0', '--log', '--data', data], {
      ...process.env,
      PROFILE_ARTICLES_MOCK_ADMIN_TOKEN: ADMIN,
    });
    const url = await mock.url;
    const auth = { authorization: 'Bearer demo-key', 'content-type': 'application/json' };
    const post = await fetch(`${url}/api/v1/articles`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': ADMIN },
      body: JSON.stringify({ profile_id: 'demo-key' }),
    });
    expect(post.status).toBe(202);
    await fetch(`${url}/api/v1/articles/${ADMIN}`, { headers: auth });
    const out = await mock.waitForOutput(/ GET \/api\/v1\/articles\/\S+ 404 /);
    expect(out).toContain(' GET /api/v1/articles/[redacted] 404 ');
    expect(out).not.toContain(ADMIN);
    mock.child.kill('SIGTERM');
    expect(await mock.exited).toBe(0);
    // At stop the journal is folded into the snapshot: between them, the values as sent.
    const kept = ['journal.log', 'snapshot.json']
      .map((name) => readFileSync(join(data, name), 'utf8'))
      .join('\n');
    expect(kept).toContain(ADMIN);
    expect(kept).not.toContain('Bearer');
  });
});
