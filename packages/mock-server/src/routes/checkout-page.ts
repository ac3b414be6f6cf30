// The payment page a checkout's `url` points at: what a buyer sees at a real provider,
// reduced to the amount and a Pay button.
import { Hono } from 'hono';
import type { CheckoutSession, PayResult } from '../rules/checkout.js';

export interface CheckoutPageDeps {
  session: (sessionId: string) => CheckoutSession | undefined;
  pay: (sessionId: string) => PayResult;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}
.card{border:1px solid #ddd;border-radius:12px;padding:1.5rem}.amount{font-size:2rem;font-weight:600}
button{font-size:1rem;padding:.75rem 2rem;border:0;border-radius:8px;background:#635bff;color:#fff;cursor:pointer}
.note{color:#666;font-size:.85rem}</style></head>
<body><div class="card">${body}</div><p class="note">Profile Article Service mock checkout: no real payment is taken.</p></body></html>`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

export function createCheckoutPage(deps: CheckoutPageDeps): Hono {
  const app = new Hono();

  app.get('/:session_id', (c) => {
    const session = deps.session(c.req.param('session_id'));
    if (!session) return page('Not found', '<h1>Checkout not found</h1>', 404);
    const id = escapeHtml(session.id);
    if (session.paid) {
      return page(
        'Paid',
        `<h1>Payment received</h1><p id="status">${session.credits} credits were added.</p>`,
      );
    }
    return page(
      'Checkout',
      `<h1>Buy credits</h1>
<p><span id="credits">${session.credits}</span> credits</p>
<p class="amount" id="amount">${dollars(session.amountCents)}</p>
<form method="post" action="/checkout/${id}/pay"><button type="submit">Pay</button></form>`,
    );
  });

  app.post('/:session_id/pay', (c) => {
    const result = deps.pay(c.req.param('session_id'));
    if (result === 'not-found') return page('Not found', '<h1>Checkout not found</h1>', 404);
    const session = deps.session(c.req.param('session_id'))!;
    const note =
      result === 'paid' ? `${session.credits} credits were added.` : 'This checkout was already paid.';
    return page('Paid', `<h1>Payment received</h1><p id="status">${note}</p>`);
  });

  return app;
}
