// GET /_mock/: the dashboard, and its own script and style. They hold no data, so they load
// without the admin token; the data comes from the control endpoints, which need it. A strict
// CSP: nothing from another origin, no inline script or style, no HTML sink (Trusted Types),
// no framing.
import type { Hono } from 'hono';
import { DASHBOARD_SCRIPT } from '../dashboard/client-script.js';
import { DASHBOARD_HTML } from '../dashboard/page-html.js';
import { DASHBOARD_CSS } from '../dashboard/page-style.js';
import type { GuardEnv } from '../http/transport.js';

const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const COMMON = {
  'content-security-policy': DASHBOARD_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // Not `no-referrer`: the page's own POSTs would then carry `Origin: null`, which is refused.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

const FILES: Record<string, { type: string; text: string }> = {
  '/_mock/': { type: 'text/html; charset=utf-8', text: DASHBOARD_HTML },
  '/_mock/dashboard.js': { type: 'text/javascript; charset=utf-8', text: DASHBOARD_SCRIPT },
  '/_mock/dashboard.css': { type: 'text/css; charset=utf-8', text: DASHBOARD_CSS },
};

/** Registers the page and its files on the service's app, before the admin token's check. */
export function registerDashboard<E extends GuardEnv>(app: Hono<E>): void {
  for (const [path, file] of Object.entries(FILES)) {
    app.get(path, (c) => {
      // A copy each time: @hono/node-server may add to a plain headers object (content-length).
      const headers = { ...COMMON, 'content-type': file.type, 'x-request-id': c.env.requestId };
      return new Response(file.text, { status: 200, headers });
    });
  }
  // The address without its slash, as a person types it.
  app.get(
    '/_mock',
    (c) =>
      new Response(null, { status: 308, headers: { location: '/_mock/', 'x-request-id': c.env.requestId } }),
  );
}
