// Random walks over the whole API (seeded, so a failure replays), checking after every
// step what must always hold: money is conserved, balances never go negative, one active
// job per profile, refunded jobs report 0 credits, and the ledger explains every balance.
import { createMockService } from '@profile-articles/mock-server';
import { seededId } from '@profile-articles/test-utils/seeded-ids';
import { describe, expect, it } from 'vitest';
import { seededRandom as prng } from '../src/rules/seeded-random.js';

const ACCOUNTS = [
  { id: 'a', apiKeys: ['key-aaaa'], credits: 400 },
  { id: 'b', apiKeys: ['key-bbbb'], credits: 150 },
];
const PROFILES = ['ada', 'grace', 'fail-x', 'stuck-y', 'notfound-z', 'linus'];

describe.each([1, 2, 3, 4, 5])('random walk with seed %i', (seed) => {
  it('keeps every invariant for 300 steps', async () => {
    const random = prng(seed);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    let n = 0; // how many ids the mock has made: job ids are seededId(1..n)
    const service = createMockService(
      { accounts: ACCOUNTS, jobs: { queuedMs: 1000, runningMs: 2000 }, payments: 'enabled' },
      { now: () => 0, newId: () => seededId(++n) },
    );
    const purchased = new Map<string, number>();
    const sessions: Array<{ id: string; account: string; credits: number }> = [];
    const call = async (key: string, method: string, path: string, body?: unknown, idem?: string) => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
      };
      if (idem) headers['idempotency-key'] = idem;
      const init: RequestInit = { method, headers };
      if (body !== undefined) init.body = JSON.stringify(body);
      const response = await service.handle(new Request(`http://mock.test${path}`, init));
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
      return { status: response.status, body: (await response.json()) as any };
    };

    for (let step = 0; step < 300; step++) {
      const account = pick(ACCOUNTS);
      const key = account.apiKeys[0]!;
      const profile = pick(PROFILES);
      const idem = `k${Math.floor(random() * 20)}`; // few keys, so replays and mismatches happen
      switch (pick(['generate', 'update', 'read', 'advance', 'buy', 'pay', 'balance'] as const)) {
        case 'generate':
          await call(key, 'POST', '/api/v1/articles', { profile_id: profile }, idem);
          break;
        case 'update':
          await call(key, 'POST', `/api/v1/articles/${profile}/update`, undefined, idem);
          break;
        case 'read':
          await call(key, 'GET', `/api/v1/articles/${profile}`);
          break;
        case 'advance':
          service.advanceClock(Math.floor(random() * 4000));
          if (random() < 0.05) service.advanceClock(31 * 60_000); // past the queued timeout
          break;
        case 'buy': {
          const credits = 10 + Math.floor(random() * 100);
          const answer = await call(key, 'POST', '/api/v1/credits/checkout', { credits });
          expect(answer.status).toBe(200);
          sessions.push({ id: answer.body.session_id, account: account.id, credits });
          break;
        }
        case 'pay': {
          const session = sessions.length ? pick(sessions) : undefined;
          if (session && service.completeCheckout(session.id) === 'paid') {
            purchased.set(session.account, (purchased.get(session.account) ?? 0) + session.credits);
          }
          break;
        }
        case 'balance':
          await call(key, 'GET', '/api/v1/credits');
          break;
      }

      // Invariants, from the service's own state.
      const state = service.state();
      const entries = state.ledger.entries();
      for (const { id, credits } of ACCOUNTS) {
        const balance = state.ledger.balance(id);
        expect(balance).toBeGreaterThanOrEqual(0);
        const moves = entries.filter((e) => e.accountId === id);
        expect(credits + moves.reduce((sum, e) => sum + e.delta, 0)).toBe(balance);
        const bought = moves.filter((e) => e.kind === 'purchase').reduce((sum, e) => sum + e.delta, 0);
        expect(bought).toBe(purchased.get(id) ?? 0);
      }
      for (let i = 1; i <= n; i++) {
        const record = state.jobs.get(seededId(i));
        if (!record) continue;
        const { job } = record;
        if (job.status === 'failed' || job.status === 'cancelled') expect(job.credits_charged).toBe(0);
        if (job.status === 'queued' || job.status === 'running')
          expect(state.jobs.activeFor(job.profile_id)).toBe(record);
        if (job.status === 'succeeded') expect(job.article?.title).toBeTruthy();
        // A reservation is refunded at most once.
        const refunds = entries.filter((e) => e.kind === 'refund' && e.jobId === job.job_id);
        expect(refunds.length).toBeLessThanOrEqual(1);
      }
    }

    // The walk reached the interesting places, or it proved little.
    const statuses = new Set<string>();
    for (let i = 1; i <= n; i++) {
      const record = service.state().jobs.get(seededId(i));
      if (record) statuses.add(record.job.status);
    }
    expect(statuses.has('succeeded')).toBe(true);
    expect(statuses.has('failed') || statuses.has('cancelled')).toBe(true);
    expect(
      service
        .state()
        .ledger.entries()
        .some((e) => e.reason === 'read'),
    ).toBe(true);
  });
});
