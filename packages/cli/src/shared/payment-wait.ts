// buy --wait: the SDK's credits.checkoutAndWait (one implementation of the wait for a payment,
// which also says how arrival is told from other spending meanwhile), shown as a person sees it:
// the payment page first, then a spinner or status lines until the credits arrive. --timeout
// bounds the wait, Ctrl-C stops it; either way a payment made later still adds its credits.
import type { CheckoutSessionResponse, ProfileArticles } from '@profile-articles/sdk';
import { CliError, Interrupted, QuietInterrupt } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Context } from '../settings/context.js';
import { MAX_WAIT_SECONDS } from '../settings/timer-limit.js';
import { plural } from '../terminal/plural.js';
import { isInterrupted, untilInterrupted, waitingText } from './job-wait.js';

const CHECK_LATER = 'Check later with `profile-articles credits`: a payment made still adds its credits.';

/** Starts the checkout, `show`s its page, and resolves to the balance once the credits arrived. */
export async function buyAndWait(
  ctx: Context,
  client: ProfileArticles,
  credits: number,
  timeoutMs: number | undefined,
  show: (session: CheckoutSessionResponse) => Promise<void>,
): Promise<number> {
  const { TimeoutError } = await import('@profile-articles/sdk');
  const { pollIntervalMs } = await ctx.settings();
  const interval = Math.max(pollIntervalMs, 200);
  const label = `Waiting for ${plural(credits, 'credit')}`;
  // Set once the page is shown: the wait begins then.
  let begun: number | undefined;
  let lastCheck = 0;
  let status = 'payment pending';
  const describe = () =>
    `${label}: ${waitingText(status, Date.now() - (begun ?? 0), lastCheck + interval - Date.now())}`;
  const statusLine = ctx.out.statusLines();
  let spinner: Awaited<ReturnType<Context['out']['spinner']>> | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  try {
    const balance = await untilInterrupted((signal) =>
      client.credits.checkoutAndWait(credits, {
        signal,
        intervalMs: interval,
        // No --timeout: until Ctrl-C (the longest wait a timer holds).
        timeoutMs: timeoutMs ?? MAX_WAIT_SECONDS * 1000,
        onCheckout: async (session) => {
          await show(session);
          begun = lastCheck = Date.now();
          spinner = await ctx.out.spinner(describe());
          statusLine(`${label}: ${status}`);
          ticker = setInterval(() => spinner?.update(describe()), 250);
          ticker.unref?.();
        },
        onPoll: (balance) => {
          lastCheck = Date.now();
          status = `balance ${balance.credits}`;
          statusLine(`${label}: ${status}`);
        },
      }),
    );
    return balance.credits;
  } catch (error) {
    if (isInterrupted(error)) {
      // Before the page was shown there is no payment to wait for.
      if (begun === undefined) throw new QuietInterrupt();
      ctx.out.clearInterruptedLine();
      throw new Interrupted('Stopped waiting for the payment.', CHECK_LATER);
    }
    if (error instanceof TimeoutError && begun !== undefined && timeoutMs !== undefined) {
      throw new CliError(
        `Stopped waiting after ${plural(Math.round(timeoutMs / 1000), 'second')}: the ${plural(credits, 'credit')} have not arrived yet.`,
        ExitCode.Failure,
        CHECK_LATER,
      );
    }
    throw error;
  } finally {
    clearInterval(ticker);
    spinner?.stop();
  }
}
