import { type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { describe, expect, it } from 'vitest';

describe.each<TransportKind>(['http', 'msw'])('idempotency over %s', (kind) => {
  const h = useMock(kind);
  const balance = (key?: string) => h.balance(key);
  const generate = (profileId: string, idempotencyKey: string, key = 'key-0001') =>
    h.call('POST', '/api/v1/articles', { key, body: { profile_id: profileId }, idempotencyKey });

  it('replays an active generate as 202 with the same job, charging once', async () => {
    const first = await generate('ada-lovelace', 'same');
    const second = await generate('ada-lovelace', 'same');
    expect(second.status).toBe(202);
    expect(second.body.job_id).toBe(first.body.job_id);
    expect(await balance()).toBe(900);
  });

  it('replays a terminal job as 200 with its current state', async () => {
    const first = await generate('ada-lovelace', 'same');
    await h.advance(5000);
    const again = await generate('ada-lovelace', 'same');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ job_id: first.body.job_id, status: 'succeeded' });
    expect(await balance()).toBe(900);
  });

  it('replays an update: 202 while active, 200 once terminal', async () => {
    await generate('ada-lovelace', 'g');
    await h.advance(5000);
    const first = await h.call('POST', '/api/v1/articles/ada-lovelace/update', { idempotencyKey: 'u' });
    const active = await h.call('POST', '/api/v1/articles/ada-lovelace/update', { idempotencyKey: 'u' });
    expect(active.status).toBe(202);
    expect(active.body.job_id).toBe(first.body.job_id);
    await h.advance(5000);
    const done = await h.call('POST', '/api/v1/articles/ada-lovelace/update', { idempotencyKey: 'u' });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('succeeded');
    expect(await balance()).toBe(800);
  });

  it('replays a generate that answered a ReadResponse, without another charge', async () => {
    await generate('ada-lovelace', 'g');
    await h.advance(5000);
    const first = await generate('ada-lovelace', 'read-key');
    const again = await generate('ada-lovelace', 'read-key');
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await balance()).toBe(899);
  });

  it('answers 409 for the same key with another profile or operation, charging nothing', async () => {
    await generate('ada-lovelace', 'same');
    await h.advance(5000);
    expect((await generate('grace-hopper', 'same')).status).toBe(409);
    expect(
      (await h.call('POST', '/api/v1/articles/ada-lovelace/update', { idempotencyKey: 'same' })).status,
    ).toBe(409);
    expect(await balance()).toBe(900);
  });

  it('replays a failed job as failed; a new key starts over', async () => {
    const first = await generate('fail-x', 'f');
    await h.advance(5000);
    const again = await generate('fail-x', 'f');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ job_id: first.body.job_id, status: 'failed' });
    const fresh = await generate('fail-x', 'f2');
    expect(fresh.status).toBe(202);
    expect(fresh.body.job_id).not.toBe(first.body.job_id);
  });

  it('keeps keys per account: another account’s same key is a new request', async () => {
    const first = await generate('ada-lovelace', 'shared-key');
    expect(first.status).toBe(202);
    await h.advance(5000);
    const other = await generate('grace-hopper', 'shared-key', 'key-other');
    expect(other.status).toBe(202);
    expect(other.body.job_id).not.toBe(first.body.job_id);
    // Another API key of the same account: the key replays the first job, charging nothing.
    const sameAccountOtherKey = await generate('ada-lovelace', 'shared-key', 'key-0002');
    expect(sameAccountOtherKey.status).toBe(200);
    expect(sameAccountOtherKey.body).toMatchObject({ job_id: first.body.job_id, status: 'succeeded' });
    expect(await h.balance()).toBe(900);
    expect(await h.balance('key-other')).toBe(900);
  });

  it('does not keep a key whose request was refused, so it can be used again', async () => {
    const refused = await generate('big', 'k', 'key-poor');
    expect(refused.status).toBe(202);
    await h.advance(5000);
    expect(await balance('key-poor')).toBe(50);
    expect((await generate('next', 'k2', 'key-poor')).status).toBe(402);
    const checkout = await h.call('POST', '/api/v1/credits/checkout', {
      key: 'key-poor',
      body: { credits: 100 },
    });
    expect(checkout.status).toBe(200);
    expect((await h.call('POST', `/_mock/checkout/${checkout.body.session_id}/complete`)).status).toBe(200);
    expect(await balance('key-poor')).toBe(150);
    // The refused request left no trace under k2: the same key now starts a job.
    const retried = await generate('next', 'k2', 'key-poor');
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ profile_id: 'next', status: 'queued' });
  });

  it('forgets keys after 24 hours of the mock clock', async () => {
    await generate('ada-lovelace', 'old');
    await h.advance(24 * 60 * 60_000 + 1000);
    const later = await generate('grace-hopper', 'old');
    expect(later.status).toBe(202);
  });

  it('validates the key: missing or longer than 200 characters is 422', async () => {
    const missing = await h.call('POST', '/api/v1/articles', { body: { profile_id: 'x' } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toContainEqual(
      expect.objectContaining({ loc: ['header', 'idempotency-key'], type: 'missing' }),
    );
    expect((await generate('x', 'k'.repeat(201))).status).toBe(422);
    expect((await generate('x', 'k'.repeat(200))).status).toBe(202);
  });
});
