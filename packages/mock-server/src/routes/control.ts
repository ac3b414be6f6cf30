// /_mock: controls for tests. They belong to whoever runs the mock: open by default, behind
// `Authorization: Bearer <adminToken>` when the config sets one.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import { ledgerReport, statsReport } from '../inspection.js';
import type { LiveState } from '../live-state.js';
import { fail, invalid, ok } from '../outcome.js';
import { bearerToken, matchesSecret } from '../rules/accounts.js';
import type { PayResult } from '../rules/checkout.js';
import { FaultsConfigSchema } from '../rules/faults.js';
import type { GuardEnv } from './guard.js';
import { requestHeader } from './request-header.js';
import { parseJsonBody, respond } from './respond.js';

const AdvanceSchema = z.strictObject({ ms: z.int().check(z.nonnegative()) });

function payOutcome(result: PayResult, sessionId: string) {
  if (result === 'not-found') return fail(404, 'Checkout session not found');
  return ok({ session_id: sessionId, paid: true, credited: result === 'paid' });
}

/** `live` holds the state and clock the controls act on; `adminToken` guards them when set. */
export function createControlRoutes(live: LiveState, adminToken: string | undefined): Hono<GuardEnv> {
  const control = new Hono<GuardEnv>();

  if (adminToken !== undefined) {
    control.use('*', async (c, next) => {
      const token = bearerToken(requestHeader(c, 'authorization'));
      if (token === undefined || !matchesSecret(token, adminToken))
        return respond(
          fail(401, 'The control endpoints need the admin token', { 'www-authenticate': 'Bearer' }),
          c.env.requestId,
        );
      await next();
    });
  }

  control.post('/reset', (c) => {
    live.reset();
    return respond(ok({ reset: true }), c.env.requestId);
  });

  control.post('/clock/advance', async (c) => {
    const parsed = await parseJsonBody(c, AdvanceSchema);
    if (!parsed.ok) return respond(invalid(parsed.issues), c.env.requestId);
    try {
      live.advance(parsed.data.ms);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      const issue = { loc: ['body', 'ms'], msg: error.message, type: 'less_than_equal' };
      return respond(invalid([issue]), c.env.requestId);
    }
    return respond(ok({ now: new Date(live.now()).toISOString() }), c.env.requestId);
  });

  control.post('/checkout/:session_id/complete', (c) => {
    const sessionId = c.req.param('session_id');
    const paid = live.state.checkouts.pay(sessionId, live.now());
    return respond(payOutcome(paid, sessionId), c.env.requestId);
  });

  control.get('/requests', (c) => respond(ok({ requests: live.state.journal.entries() }), c.env.requestId));
  control.get('/ledger', (c) => respond(ok(ledgerReport(live.current())), c.env.requestId));
  control.get('/stats', (c) => {
    const at = live.now();
    return respond(ok(statsReport(live.state, at)), c.env.requestId);
  });

  control.get('/faults', (c) => respond(ok(live.state.faults.config()), c.env.requestId));
  control.put('/faults', async (c) => {
    const parsed = await parseJsonBody(c, FaultsConfigSchema);
    if (!parsed.ok) return respond(invalid(parsed.issues), c.env.requestId);
    live.state.faults.set(parsed.data);
    return respond(ok(live.state.faults.config()), c.env.requestId);
  });
  control.delete('/faults', (c) => {
    live.state.faults.set(FaultsConfigSchema.parse({}));
    return respond(ok(live.state.faults.config()), c.env.requestId);
  });

  return control;
}
