// The control routes on their own: built from the live state before any service exists, they
// act on the state and clock they were given, and keep doing so across a reset.
import { describe, expect, it } from 'vitest';
import { normalizeConfig } from '../config/config.js';
import { createLiveState } from '../data/live-state.js';
import { createControlRoutes } from './control.js';

const START = Date.parse('2026-01-01T00:00:00Z');

function controls(adminToken?: string) {
  let n = 0;
  const live = createLiveState(normalizeConfig(), {
    now: () => START,
    newId: () => `id-${++n}`,
    onError: (error) => expect.fail(String(error)),
  });
  const app = createControlRoutes(live, adminToken);
  // What the service's `handle` gives every route: the request's id.
  const routes = {
    request: (path: string, init?: RequestInit) => app.request(path, init, { requestId: 'req_1' }),
  };
  return { live, routes };
}

const json = { 'content-type': 'application/json' };

describe('control routes', () => {
  it('move the clock they were given', async () => {
    const { live, routes } = controls();
    const answer = await routes.request('/clock/advance', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ ms: 60_000 }),
    });
    expect(await answer.json()).toEqual({ now: '2026-01-01T00:01:00.000Z' });
    expect(live.now()).toBe(START + 60_000);
  });

  it('act on the new state after a reset', async () => {
    const { live, routes } = controls();
    const put = () =>
      routes.request('/faults', {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ rules: [{ kind: 'fail', probability: 0.5 }] }),
      });
    await put();
    const before = live.state;
    expect(before.faults.config().rules).toHaveLength(1);

    expect(await (await routes.request('/reset', { method: 'POST' })).json()).toEqual({ reset: true });
    expect(live.state).not.toBe(before);
    expect((await (await routes.request('/faults')).json()).rules).toEqual([]);
    await put();
    expect(live.state.faults.config().rules).toHaveLength(1);
  });

  it('show the ledger of the state they hold', async () => {
    const { live, routes } = controls();
    const ledger = await (await routes.request('/ledger')).json();
    expect(ledger.accounts.map((a: { accountId: string }) => a.accountId)).toEqual(
      live.state.ledger.accountIds(),
    );
  });
});
