// buy --wait: watching the balance until a purchase arrives. The interface has no checkout
// status, only the balance, and other spending may go on meanwhile (a generate in another
// terminal). So a purchase counts as arrived when the balance reaches what it was at the
// start plus the credits bought, or when it grows by at least the credits bought between two
// checks. Spending can still hide a payment in the same interval as it lands: --timeout bounds
// the wait, and `profile-articles credits` tells the rest.
import { setTimeout as delay } from 'node:timers/promises';
import type { ProfileArticles } from '@profile-articles/sdk';
import type { Context } from './context.js';
import { CliError, Interrupted } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { isInterrupted, untilInterrupted, waitingText } from './job-wait.js';
import { plural } from './plural.js';

/** True once the balances seen say that `credits` arrived. */
export function purchaseArrived(start: number, previous: number, now: number, credits: number): boolean {
  return now >= start + credits || now - previous >= credits;
}

const CHECK_LATER = 'Check later with `profile-articles credits`: a payment made still adds its credits.';

export async function waitForPayment(
  ctx: Context,
  client: ProfileArticles,
  start: number,
  credits: number,
  timeoutMs: number | undefined,
): Promise<number> {
  const { pollIntervalMs } = await ctx.settings();
  const interval = Math.max(pollIntervalMs, 200);
  const begun = Date.now();
  let lastCheck = begun;
  const label = `Waiting for ${plural(credits, 'credit')}`;
  const describe = (status: string) =>
    `${label}: ${waitingText(status, Date.now() - begun, lastCheck + interval - Date.now())}`;
  let status = 'payment pending';
  const spinner = await ctx.out.spinner(describe(status));
  const statusLine = ctx.out.statusLines();
  statusLine(`${label}: ${status}`);
  const ticker = setInterval(() => spinner.update(describe(status)), 250);
  ticker.unref?.();
  try {
    return await untilInterrupted(async (signal) => {
      let previous = start;
      for (;;) {
        const now = (await client.credits.balance({ signal })).credits;
        lastCheck = Date.now();
        if (purchaseArrived(start, previous, now, credits)) return now;
        previous = now;
        status = `balance ${now}`;
        statusLine(`${label}: ${status}`);
        const left = timeoutMs === undefined ? interval : begun + timeoutMs - Date.now();
        if (left <= 0) {
          throw new CliError(
            `Stopped waiting after ${plural(Math.round(timeoutMs! / 1000), 'second')}: the ${plural(credits, 'credit')} have not arrived yet.`,
            ExitCode.Failure,
            CHECK_LATER,
          );
        }
        // Node rejects with its own AbortError: rethrow the reason, which says it was Ctrl-C.
        await delay(Math.min(interval, left), undefined, { signal }).catch(() => {
          throw signal.reason;
        });
      }
    });
  } catch (error) {
    if (isInterrupted(error)) {
      ctx.out.clearInterruptedLine();
      throw new Interrupted('Stopped waiting for the payment.', CHECK_LATER);
    }
    throw error;
  } finally {
    clearInterval(ticker);
    spinner.stop();
  }
}
