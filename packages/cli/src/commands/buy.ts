// buy N: checks the amount against the account's terms, starts a checkout, prints (or
// opens) the payment page, and with --wait watches the balance until the credits arrive
// (payment-wait.ts says how arrival is told apart from other spending).

import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { parseTimeout } from '../job-wait.js';
import { waitForPayment } from '../payment-wait.js';
import { plural } from '../plural.js';

interface BuyOptions {
  open?: boolean;
  wait?: boolean;
  timeout?: string;
}

function parseCredits(raw: string): number {
  const credits = Number(raw);
  if (!Number.isInteger(credits) || credits <= 0) {
    throw new CliError(`credits must be a whole number above 0, got "${raw}"`, ExitCode.Usage);
  }
  return credits;
}

/** True when a browser launcher started and did not fail within a moment. */
async function openInBrowser(url: string): Promise<boolean> {
  try {
    const { default: open } = await import('open');
    const launcher = await open(url);
    // Launchers (xdg-open, open) exit at once; a non-zero code means no browser was found.
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(0), 2000);
      launcher.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    return code === 0;
  } catch {
    return false;
  }
}

export async function buyCommand(ctx: Context, rawCredits: string, options: BuyOptions): Promise<void> {
  const credits = parseCredits(rawCredits);
  const timeoutMs = parseTimeout(options.timeout);
  const client = await ctx.client();
  const { out } = ctx;
  const before = await client.credits.balance();
  const { min_purchase_credits: min, max_purchase_credits: max, credit_price_cents: cents } = before.pricing;
  if (credits < min || credits > max) {
    throw new CliError(`You can buy ${min} to ${max} credits at a time, not ${credits}.`, ExitCode.Usage);
  }
  const session = await client.credits.checkout(credits);
  if (out.json) out.value(session);
  else {
    const amount = cents === undefined ? '' : ` for $${((credits * cents) / 100).toFixed(2)}`;
    out.line(`Pay for ${plural(credits, 'credit')}${amount} at:`);
    out.line(`  ${out.style.cyan(session.url)}`);
  }
  if (options.open) {
    const opened = await openInBrowser(session.url);
    out.note(
      opened
        ? 'Opened the payment page in your browser.'
        : 'Could not open a browser: open the address above yourself.',
    );
  }
  if (!options.wait) {
    out.note(
      out.errStyle.dim(
        'Credits are added once the payment is confirmed: check with `profile-articles credits`.',
      ),
    );
    return;
  }
  const balance = await waitForPayment(ctx, client, before.credits, credits, timeoutMs);
  if (out.json) return;
  out.note(`Payment received: your balance is ${plural(balance, 'credit')}.`);
}
