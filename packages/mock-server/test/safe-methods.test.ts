// HEAD is a safe method: on no route may it charge, journal, pay or move anything. Every
// route of the mock is tried, and the state behind the HTTP surface is compared before and after.

import { generateAndFinish, type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { describe, expect, it } from 'vitest';

describe.each<TransportKind>(['http', 'msw'])('HEAD on every route over %s', (kind) => {
  const h = useMock(kind);

  it('answers 405 with Allow and moves no money, journal or state', async () => {
    const job = await generateAndFinish(h, 'ada');
    const checkout = await h.call('POST', '/api/v1/credits/checkout', { body: { credits: 20 } });
    const session = checkout.body.session_id as string;
    const routes: Array<[string, string]> = [
      ['/api/v1/articles', 'POST'],
      ['/api/v1/articles/ada', 'GET'],
      ['/api/v1/articles/ada/update', 'POST'],
      [`/api/v1/jobs/${job.job_id}`, 'GET'],
      ['/api/v1/credits', 'GET'],
      ['/api/v1/credits/checkout', 'POST'],
      ['/_mock/reset', 'POST'],
      ['/_mock/clock/advance', 'POST'],
      [`/_mock/checkout/${session}/complete`, 'POST'],
      ['/_mock/requests', 'GET'],
      ['/_mock/ledger', 'GET'],
      ['/_mock/stats', 'GET'],
      ['/_mock/faults', 'GET, PUT, DELETE'],
      [`/checkout/${session}`, 'GET'],
      [`/checkout/${session}/pay`, 'POST'],
    ];
    const state = h.service.state();
    const before = {
      balance: h.service.balance('acme'),
      ledger: state.ledger.entries().length,
      journal: h.service.journal().length,
      paid: state.checkouts.get(session)?.paid,
    };
    for (const [path, allow] of routes) {
      const answer = await h.call('HEAD', path, { idempotencyKey: 'head-key' });
      expect(answer.status, `HEAD ${path}`).toBe(405);
      expect(answer.headers.get('allow'), `HEAD ${path}`).toBe(allow);
    }
    expect(h.service.state()).toBe(state); // no reset happened
    expect({
      balance: h.service.balance('acme'),
      ledger: state.ledger.entries().length,
      journal: h.service.journal().length,
      paid: state.checkouts.get(session)?.paid,
    }).toEqual(before);
  });
});
