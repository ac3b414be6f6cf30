// The rate limit, provoked only with --check-rate-limit: it blocks the account's other
// traffic for up to a minute. Free balance calls fill the window; the 429 must carry
// `{detail}` and a Retry-After in whole seconds, and the balance must answer again after it.
// A Retry-After above verify's cap (limits.ts) fails and is never waited; a window that needs
// more calls than verify's cap (limits.ts) is not provoked at all (inconclusive).
import { call, expectAnswer, type RunContext, record, skip } from '../context.js';
import { secondsText } from '../limits.js';
import { retryAfterSeconds, retryWaitMs } from '../probe.js';
import type { CheckResult } from '../report.js';

const NAME = '429 once the window is full';

export async function checkRateLimit(ctx: RunContext): Promise<void> {
  if (!ctx.options.checkRateLimit) {
    skip(
      ctx,
      'getBalance',
      'rate-limit.429',
      NAME,
      'not provoked without --check-rate-limit (it blocks the account for up to a minute)',
    );
    return;
  }
  // Our own earlier calls and other traffic already count: the window fills sooner, never later.
  const attempts = ctx.pricing.requests_per_minute + 5;
  // The count is the server's to advertise, the calls verify's to send: never more than its cap.
  const cap = ctx.limits.maxRateLimitCalls;
  if (attempts > cap) {
    record(ctx, {
      id: 'rate-limit.429',
      endpoint: 'getBalance',
      name: NAME,
      status: 'inconclusive',
      reason: `not provoked: requests_per_minute ${ctx.pricing.requests_per_minute} needs more calls than verify's cap of ${cap}`,
    });
    return;
  }
  for (let i = 0; i < attempts; i++) {
    const answer = await call(ctx, 'getBalance', { raw429: true });
    if (answer.status === 200) continue;
    if (!expectAnswer(ctx, 'getBalance', 'rate-limit.429', NAME, answer, 429)) return;
    const header = answer.headers.get('retry-after');
    const maxMs = ctx.limits.maxRetryAfterMs;
    record(ctx, {
      id: 'rate-limit.retry-after',
      endpoint: 'getBalance',
      name: RETRY_AFTER_NAME,
      ...retryAfterVerdict(header, maxMs),
    });
    const waitMs = retryWaitMs(header, maxMs);
    if (waitMs === undefined) {
      const reason = `not waited: Retry-After ${header} is above ${secondsText(maxMs)}`;
      return skip(ctx, 'getBalance', 'rate-limit.recovery', RECOVERY_NAME, reason);
    }
    await ctx.wait(waitMs);
    const after = await call(ctx, 'getBalance', { raw429: true });
    expectAnswer(ctx, 'getBalance', 'rate-limit.recovery', RECOVERY_NAME, after, 200);
    return;
  }
  record(ctx, {
    id: 'rate-limit.429',
    endpoint: 'getBalance',
    name: NAME,
    status: 'failed',
    expected: `a 429 within ${attempts} calls (requests_per_minute ${ctx.pricing.requests_per_minute})`,
    got: 'every call answered 200',
  });
}

const RECOVERY_NAME = 'the balance answers again after Retry-After';

/**
 * A 429's Retry-After: present, whole seconds, at most `maxMs` (a longer one is not waited).
 * For the provoked 429 and any met by chance.
 */
export function retryAfterVerdict(
  header: string | null,
  maxMs: number,
): Pick<CheckResult, 'status' | 'expected' | 'got'> {
  const seconds = retryAfterSeconds(header);
  if (seconds === undefined) {
    const got = header === null ? 'no Retry-After' : `Retry-After: ${header}`;
    return { status: 'failed', expected: 'a Retry-After header of whole seconds', got };
  }
  if (seconds * 1000 <= maxMs) return { status: 'passed' };
  return {
    status: 'failed',
    expected: `a Retry-After of whole seconds, at most ${maxMs / 1000}`,
    got: `Retry-After: ${header} (not waited)`,
  };
}

export const RETRY_AFTER_NAME = '429 carries Retry-After in whole seconds';
