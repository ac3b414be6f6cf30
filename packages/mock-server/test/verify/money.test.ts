// verify against servers that lie about money: each takes credits it should not, or says it
// took or gave back what it did not. What verify reports as spent must be what the balance
// lost, a probe runs only when --spend covers the higher of the interface's price and the
// advertised one, and every lie is a failed check.
import {
  advertise,
  chargeFor,
  claimCharged,
  drifts,
  failWithoutRefund,
  frozenBalance,
} from '@profile-articles/test-utils/lying-mock';
import { describe, expect, it } from 'vitest';
import { checkOf, failedChecks, seedArticle, startMock, VERIFY_CONFIG, verifyJson } from './harness.js';

const GENERATE = ['--generate-profile', 'grace-hopper'];

/** Credits the account lost since the start (1000). */
const lost = (server: Awaited<ReturnType<typeof startMock>>) => 1000 - server.service.balance('acme');

describe('verify measures what it spends', () => {
  it('treats the 404 update as paid: a server that charges for it spends nothing under --spend 0', async () => {
    const server = await startMock(chargeFor('updateArticle', 100, (status) => status === 404));
    const run = await verifyJson(server, []);
    expect(lost(server)).toBe(0);
    expect(run.report.credits_spent).toBe(0);
    expect(checkOf(run.report, 'update.no-article-404')).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('could cost 100 credits; --spend leaves 0'),
    });
  });

  it('counts and fails the charge of a 404 update that --spend allowed', async () => {
    const server = await startMock(chargeFor('updateArticle', 100, (status) => status === 404));
    const run = await verifyJson(server, ['--spend', '100']);
    expect(lost(server)).toBe(100);
    expect(run.report.credits_spent).toBe(100);
    expect(run.code).toBe(1);
    expect(checkOf(run.report, 'update.no-article-404.charge')).toMatchObject({
      status: 'failed',
      endpoint: 'POST /api/v1/articles/{profile_id}/update',
      expected: 'the balance to fall by 0 (a 404 answer charges nothing)',
      got: 'the balance fell by 100',
    });
  });

  it('budgets by the interface price when the server advertises less: generation_credits 1 spends nothing under --spend 1', async () => {
    const server = await startMock(advertise({ generation_credits: 1 }));
    const run = await verifyJson(server, ['--spend', '1', ...GENERATE]);
    expect(lost(server)).toBe(0);
    expect(run.report.credits_spent).toBe(0);
    expect(checkOf(run.report, 'generate.start')).toMatchObject({
      status: 'skipped',
      reason: 'a generation could cost 100 credits; --spend leaves 1',
    });
  });

  it('fails a charge above what the probe was allowed, counts it, and stops every paid probe after it', async () => {
    const server = await startMock(advertise({ generation_credits: 100 }), {
      ...VERIFY_CONFIG,
      accounts: [{ ...VERIFY_CONFIG.accounts![0]!, pricing: { generation_credits: 200 } }],
    });
    const run = await verifyJson(server, ['--spend', '1000', ...GENERATE]);
    expect(checkOf(run.report, 'generate.start.spend')).toMatchObject({
      status: 'failed',
      endpoint: 'POST /api/v1/articles',
      expected: 'at most 100 credits',
      got: 'the balance fell by 200',
    });
    for (const id of ['generate.replay', 'generate.key-reuse-409', 'update.start']) {
      expect(checkOf(run.report, id), id).toMatchObject({
        status: 'skipped',
        reason: expect.stringContaining('paid probes stopped: generate.start cost 200 credits'),
      });
    }
    expect(lost(server)).toBe(200);
    expect(run.report.credits_spent).toBe(200);
  });

  it('gives budget back only for a refund the balance shows: a job that claims credits_charged 0 and kept them', async () => {
    const server = await startMock(failWithoutRefund());
    const run = await verifyJson(server, ['--spend', '100', ...GENERATE]);
    expect(lost(server)).toBe(100);
    expect(run.report.credits_spent).toBe(100);
    expect(checkOf(run.report, 'generate.refund.balance')).toMatchObject({
      status: 'failed',
      endpoint: 'GET /api/v1/jobs/{job_id}',
      expected: 'the balance to rise by 100',
      got: 'the balance rose by 0',
    });
    // Nothing was given back, so nothing is left for the replay (it could generate again).
    expect(checkOf(run.report, 'generate.replay').status).toBe('skipped');
  });

  it('gives budget back for a refund the balance shows: a failed job, refunded, leaves room for the replay', async () => {
    const server = await startMock();
    const run = await verifyJson(server, ['--spend', '100', '--generate-profile', 'fail-grace']);
    expect(failedChecks(run.report)).toEqual([]);
    expect(checkOf(run.report, 'generate.poll').reason).toBe('ended failed');
    expect(checkOf(run.report, 'generate.replay').status).toBe('passed');
    expect(lost(server)).toBe(0);
    expect(run.report.credits_spent).toBe(0);
  });

  it('fails a charge the balance does not show (a frozen balance), counts the claim and stops paid probes', async () => {
    const server = await startMock(frozenBalance());
    const run = await verifyJson(server, ['--spend', '1000', ...GENERATE]);
    expect(checkOf(run.report, 'generate.start.charge')).toMatchObject({
      status: 'failed',
      expected: 'the balance to fall by 100 (credits_charged 100)',
      got: 'the balance fell by 0',
    });
    expect(checkOf(run.report, 'update.start').status).toBe('skipped');
    expect(run.report.credits_spent).toBe(100);
    expect(lost(server)).toBe(100);
  });

  it('fails a read whose credits_charged says 0 while the balance fell by the read price', async () => {
    const server = await startMock(drifts(claimCharged('readArticle', 0)));
    await seedArticle(server, 'ada-lovelace');
    const before = server.service.balance('acme');
    const run = await verifyJson(server, ['--spend', '1', '--profile', 'ada-lovelace']);
    expect(checkOf(run.report, 'read.existing.charge')).toMatchObject({
      status: 'failed',
      expected: 'the balance to fall by 0 (credits_charged 0)',
      got: 'the balance fell by 1',
    });
    expect(run.report.credits_spent).toBe(before - server.service.balance('acme'));
  });
});
