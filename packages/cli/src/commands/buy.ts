// buy N: checks the amount against the account's terms, starts a checkout, prints (or opens,
// where browser.ts allows the address) the payment page, and with --wait watches the balance
// until the credits arrive (the SDK's credits.checkoutAndWait, through payment-wait.ts).

import type { CheckoutSessionResponse } from '@profile-articles/sdk';
import { terminalSafe } from '@profile-articles/sdk/internal/terminal';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Context } from '../settings/context.js';
import { openableAddress, openInBrowser } from '../shared/browser.js';
import { parseTimeout } from '../shared/job-wait.js';
import { buyAndWait } from '../shared/payment-wait.js';
import { plural } from '../terminal/plural.js';

interface BuyOptions {
  open?: boolean;
  wait?: boolean;
  timeout?: string;
}

/** Digits only, as `verify --spend` takes them: Number() would read 1e3, 0x10 or " 5" too. */
function parseCredits(raw: string): number {
  const credits = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(credits) || credits <= 0) {
    throw new CliError(
      `credits must be a whole number above 0, in digits, got ${JSON.stringify(raw)}`,
      ExitCode.Usage,
      'Give the number of credits to buy, such as `profile-articles buy 500`.',
    );
  }
  return credits;
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
  // The origin decides whether plain http on this machine is the mock's page (browser.ts).
  const origin = await ctx.baseUrl();
  // The payment page, printed (and opened, where browser.ts allows the address).
  const show = async (session: CheckoutSessionResponse) => {
    // Checked before anything is printed: a page that will not be opened is refused in one line.
    const page = options.open ? openableAddress(session.url, origin) : undefined;
    if (out.json) out.value(session);
    else {
      const amount = cents === undefined ? '' : ` for $${((credits * cents) / 100).toFixed(2)}`;
      out.line(`Pay for ${plural(credits, 'credit')}${amount} at:`);
      // The server's URL, on its own line: one line, whatever it holds.
      out.line(`  ${out.style.cyan(terminalSafe(session.url))}`);
    }
    if (page !== undefined) {
      const opened = await openInBrowser(page, origin);
      out.note(
        opened
          ? 'Opened the payment page in your browser.'
          : 'Could not open a browser: open the address above yourself.',
      );
    }
  };
  if (!options.wait) {
    await show(await client.credits.checkout(credits));
    out.note(
      out.errStyle.dim(
        'Credits are added once the payment is confirmed: check with `profile-articles credits`.',
      ),
    );
    return;
  }
  const balance = await buyAndWait(ctx, client, credits, timeoutMs, show);
  if (out.json) return;
  out.note(`Payment received: your balance is ${plural(balance, 'credit')}.`);
}
