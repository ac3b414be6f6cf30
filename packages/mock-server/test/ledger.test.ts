import { type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { describe, expect, it } from 'vitest';

describe.each<TransportKind>(['http', 'msw'])('GET /_mock/ledger and /_mock/stats over %s', (kind) => {
  const h = useMock(kind);
  const ledger = async () => (await h.call('GET', '/_mock/ledger')).body;

  it('records each reservation, charge, refund and purchase with reason, job and account, never a key', async () => {
    const started = await h.call('POST', '/api/v1/articles', {
      body: { profile_id: 'ada' },
      idempotencyKey: 'g1',
    });
    const failed = await h.call('POST', '/api/v1/articles', {
      body: { profile_id: 'fail-x' },
      idempotencyKey: 'g2',
    });
    await h.advance(5000);
    expect((await h.call('GET', '/api/v1/articles/ada')).status).toBe(200);
    expect(
      (await h.call('POST', '/api/v1/articles', { body: { profile_id: 'ada' }, idempotencyKey: 'g3' }))
        .status,
    ).toBe(200);
    const checkout = await h.call('POST', '/api/v1/credits/checkout', { body: { credits: 200 } });
    await h.call('POST', `/_mock/checkout/${checkout.body.session_id}/complete`);

    const report = await ledger();
    const moves = report.entries.map((e: any) => [
      e.accountId,
      e.kind,
      e.reason,
      e.delta,
      e.credits,
      e.jobId,
    ]);
    expect(moves).toEqual([
      ['acme', 'reservation', 'generate', -100, 100, started.body.job_id],
      ['acme', 'reservation', 'generate', -100, 100, failed.body.job_id],
      ['acme', 'charge', 'job-succeeded', 0, 100, started.body.job_id],
      ['acme', 'refund', 'job-failed', 100, 100, failed.body.job_id],
      ['acme', 'charge', 'read', -1, 1, null],
      ['acme', 'charge', 'generate-read', -1, 1, null],
      ['acme', 'purchase', 'checkout-paid', 200, 200, null],
    ]);
    expect(report.entries.at(-1)).toMatchObject({ sessionId: checkout.body.session_id, balance: 1098 });
    expect(report.entries[0].at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const acme = report.accounts.find((a: any) => a.accountId === 'acme');
    expect(acme).toEqual({
      accountId: 'acme',
      opening: 1000,
      purchased: 200,
      reserved: 200,
      refunded: 100,
      jobCharges: 100,
      readCharges: 2,
      balance: 1098,
      held: 0,
      rateLimited: 0,
      injected429: 0,
    });
    expect((await h.call('GET', '/api/v1/credits')).body.credits).toBe(acme.balance);
    expect(JSON.stringify(report)).not.toMatch(/key-1|key-2|Bearer/);
  });

  it('counts 429 answers per account for ever, beyond the journal', async () => {
    for (let i = 0; i < 5; i++) await h.call('GET', '/api/v1/credits', { key: 'key-limited' });
    const stats = (await h.call('GET', '/_mock/stats')).body;
    expect(stats.accounts.limited).toEqual({ rateLimited: 2, injected429: 0 });
    const limited = (await ledger()).accounts.find((a: any) => a.accountId === 'limited');
    expect(limited.rateLimited).toBe(2);
    expect(stats.sizes).toMatchObject({ journal: 5, journalCapacity: 1000, rateWindows: 1, rateBuckets: 60 });
  });

  it('answers 405 with Allow for other methods', async () => {
    const answer = await h.call('POST', '/_mock/ledger');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET');
  });
});
