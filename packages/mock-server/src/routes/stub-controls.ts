// /_mock/stubs: outcome stubs registered, listed and removed over HTTP (rules/request/stubs.ts
// keeps them, routes/apply-stub.ts applies them). Mounted on the control routes, so the Host,
// Origin and admin-token rules of every control endpoint hold here too.
import type { Hono } from 'hono';
import type { LiveState } from '../data/live-state.js';
import type { GuardEnv } from '../http/transport.js';
import { type AnyOutcome, fail, invalid, JSON_INVALID, ok } from '../operations/outcome.js';
import { checkStub } from '../rules/request/stubs.js';

/** No body: 204 with the request id only. */
const noContent = (requestId: string) =>
  new Response(null, { status: 204, headers: { 'x-request-id': requestId } });

function jsonOf(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** `respond` is the control routes' own (it redacts the keys from every answer). */
export function registerStubControls(
  control: Hono<GuardEnv>,
  live: LiveState,
  respond: (outcome: AnyOutcome, requestId: string) => Response,
): void {
  control.post('/stubs', async (c) => {
    const body = jsonOf(c.env?.body ?? (await c.req.text()));
    if (!body.ok) return respond(invalid([JSON_INVALID]), c.env.requestId);
    const checked = checkStub(body.value);
    if (!checked.ok) return respond(invalid(checked.issues), c.env.requestId);
    const stub = live.state.stubs.add(checked.stub).view;
    // 201, which no API answer has: the status is the control endpoint's own.
    return respond({ ...ok(stub), status: 201 } as unknown as AnyOutcome, c.env.requestId);
  });
  control.get('/stubs', (c) => respond(ok({ stubs: live.state.stubs.list() }), c.env.requestId));
  control.delete('/stubs', (c) => {
    live.state.stubs.clear();
    return noContent(c.env.requestId);
  });
  control.delete('/stubs/:id', (c) => {
    const id = c.req.param('id');
    if (!live.state.stubs.remove(id))
      return respond(fail(404, `No stub has the id "${id}"`), c.env.requestId);
    return noContent(c.env.requestId);
  });
}
