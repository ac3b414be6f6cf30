// /_mock: controls for tests. They belong to whoever runs the mock: open by default, behind
// `Authorization: Bearer <adminToken>` when the config sets one.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import { fail, invalid, ok } from '../outcome.js';
import { bearerToken, matchesSecret } from '../rules/accounts.js';
import type { PayResult } from '../rules/checkout.js';
import { FaultsConfigSchema, type NormalizedFaults } from '../rules/faults.js';
import type { JournalEntry } from '../rules/journal.js';
import type { GuardEnv } from './guard.js';
import { parseJsonBody, respond } from './respond.js';

export interface ControlDeps {
  reset: () => void;
  advance: (ms: number) => void;
  now: () => number;
  completeCheckout: (sessionId: string) => PayResult;
  journal: () => JournalEntry[];
  /** `GET /_mock/ledger`'s body. */
  ledger: () => unknown;
  /** `GET /_mock/stats`'s body. */
  stats: () => unknown;
  faults: () => NormalizedFaults;
  setFaults: (faults: NormalizedFaults) => void;
  adminToken: string | undefined;
}

const AdvanceSchema = z.strictObject({ ms: z.int().check(z.nonnegative()) });

function payOutcome(result: PayResult, sessionId: string) {
  if (result === 'not-found') return fail(404, 'Checkout session not found');
  return ok({ session_id: sessionId, paid: true, credited: result === 'paid' });
}

export function createControlRoutes(deps: ControlDeps): Hono<GuardEnv> {
  const control = new Hono<GuardEnv>();

  const { adminToken } = deps;
  if (adminToken !== undefined) {
    control.use('*', async (c, next) => {
      const token = bearerToken(c.req.header('authorization'));
      if (token === undefined || !matchesSecret(token, adminToken))
        return respond(
          fail(401, 'The control endpoints need the admin token', { 'www-authenticate': 'Bearer' }),
        );
      await next();
    });
  }

  control.post('/reset', () => {
    deps.reset();
    return respond(ok({ reset: true }));
  });

  control.post('/clock/advance', async (c) => {
    const parsed = await parseJsonBody(c, AdvanceSchema);
    if (!parsed.ok) return respond(invalid(parsed.issues));
    try {
      deps.advance(parsed.data.ms);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return respond(invalid([{ loc: ['body', 'ms'], msg: error.message, type: 'less_than_equal' }]));
    }
    return respond(ok({ now: new Date(deps.now()).toISOString() }));
  });

  control.post('/checkout/:session_id/complete', (c) => {
    const sessionId = c.req.param('session_id');
    return respond(payOutcome(deps.completeCheckout(sessionId), sessionId));
  });

  control.get('/requests', () => respond(ok({ requests: deps.journal() })));
  control.get('/ledger', () => respond(ok(deps.ledger())));
  control.get('/stats', () => respond(ok(deps.stats())));

  control.get('/faults', () => respond(ok(deps.faults())));
  control.put('/faults', async (c) => {
    const parsed = await parseJsonBody(c, FaultsConfigSchema);
    if (!parsed.ok) return respond(invalid(parsed.issues));
    deps.setFaults(parsed.data);
    return respond(ok(deps.faults()));
  });
  control.delete('/faults', () => {
    deps.setFaults(FaultsConfigSchema.parse({}));
    return respond(ok(deps.faults()));
  });

  return control;
}
