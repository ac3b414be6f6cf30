// The payment page a checkout's `url` points at: what a buyer sees at a real provider,
// reduced to the amount and a Pay button. It cannot be framed (no clickjacking), runs no
// script, and its Pay form carries a token only this page knows (no cross-site forgery).
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import type { GuardEnv } from '../http/transport.js';
import type { CheckoutSession, PayResult } from '../rules/money/checkout.js';
import type { PageTokens } from '../rules/money/page-tokens.js';

interface CheckoutPageDeps {
  session: (sessionId: string) => CheckoutSession | undefined;
  pay: (sessionId: string) => PayResult;
  tokens: PageTokens;
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}
.card{border:1px solid #ddd;border-radius:12px;padding:1.5rem}.amount{font-size:2rem;font-weight:600}
button{font-size:1rem;padding:.75rem 2rem;border:0;border-radius:8px;background:#635bff;color:#fff;cursor:pointer}
.note{color:#666;font-size:.85rem}`;

/** Nothing but this page's own style and a form posting to this origin. */
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // Not `no-referrer`: with it a browser sends `Origin: null` for the Pay form, which the Origin check refuses.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

function page(requestId: string, title: string, body: string, status = 200): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style></head>
<body><div class="card">${body}</div><p class="note">Profile Article Service mock checkout: no real payment is taken.</p></body></html>`;
  // A copy each time: @hono/node-server may add to a plain headers object (content-length).
  return new Response(html, { status, headers: { ...HEADERS, 'x-request-id': requestId } });
}

export function createCheckoutPage(deps: CheckoutPageDeps): Hono<GuardEnv> {
  const app = new Hono<GuardEnv>();

  app.get('/:session_id', (c) => {
    const session = deps.session(c.req.param('session_id'));
    if (!session) return page(c.env.requestId, 'Not found', '<h1>Checkout not found</h1>', 404);
    const id = escapeHtml(session.id);
    if (session.paid) {
      return page(
        c.env.requestId,
        'Paid',
        `<h1>Payment received</h1><p id="status">${session.credits} credits were added.</p>`,
      );
    }
    return page(
      c.env.requestId,
      'Checkout',
      `<h1>Buy credits</h1>
<p><span id="credits">${session.credits}</span> credits</p>
<p class="amount" id="amount">${dollars(session.amountCents)}</p>
<form method="post" action="/checkout/${id}/pay">
<input type="hidden" name="csrf" value="${escapeHtml(deps.tokens.issue(session.id))}">
<button type="submit">Pay</button></form>`,
    );
  });

  app.post('/:session_id/pay', async (c) => {
    const sessionId = c.req.param('session_id');
    const token = new URLSearchParams(await c.req.text()).get('csrf') ?? '';
    if (!deps.tokens.verify(sessionId, token)) {
      return page(
        c.env.requestId,
        'Refused',
        '<h1>Payment refused</h1><p>This request did not come from the checkout page. Open the checkout link again.</p>',
        403,
      );
    }
    const result = deps.pay(sessionId);
    if (result === 'not-found') return page(c.env.requestId, 'Not found', '<h1>Checkout not found</h1>', 404);
    const session = deps.session(sessionId)!;
    const note =
      result === 'paid' ? `${session.credits} credits were added.` : 'This checkout was already paid.';
    return page(c.env.requestId, 'Paid', `<h1>Payment received</h1><p id="status">${note}</p>`);
  });

  return app;
}
