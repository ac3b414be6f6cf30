// One verify run: the checks in order, free first, then paid within --spend, then the
// rate limit (last, since it blocks the account for a while). A refused key or an
// unreachable origin ends the run with what was found so far.
import { PricingSchema } from '@profile-articles/sdk/schemas';
import { Budget } from './budget.js';
import { checkAuth } from './checks/auth.js';
import { checkBalance, KeyRefusedError } from './checks/balance.js';
import { checkGenerate } from './checks/generate.js';
import { checkGuardedValidation } from './checks/guarded.js';
import { checkPaidReads } from './checks/paid-read.js';
import { checkRateLimit, RETRY_AFTER_NAME, retryAfterVerdict } from './checks/rate-limit.js';
import { checkValidation } from './checks/validation.js';
import type { RunContext, VerifyOptions } from './context.js';
import { DEFAULT_LIMITS, realTimer, type Timer, type VerifyLimits } from './limits.js';
import { createProbe, UnreachableError } from './probe.js';
import { redactReport, summarize, type VerifyReport } from './report.js';

export interface VerifyDeps {
  fetch?: typeof fetch;
  /** Real sleep by default; tests pass one that moves the mock's clock. */
  wait?: (ms: number) => Promise<void>;
  /** verify's limits (limits.ts); tests may lower one. */
  limits?: Partial<VerifyLimits>;
  /** Starts each probe's time limit; setTimeout by default, tests expire it on an event. */
  timer?: Timer;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runVerify(options: VerifyOptions, deps: VerifyDeps = {}): Promise<VerifyReport> {
  const wait = deps.wait ?? sleep;
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const ctx: RunContext = {
    options,
    wait,
    limits,
    pricing: PricingSchema.parse({}),
    budget: new Budget(options.spend),
    checks: [],
    probe: undefined as never,
  };
  ctx.probe = createProbe({
    origin: options.origin,
    apiKey: options.apiKey,
    fetch: deps.fetch ?? fetch,
    wait,
    limits,
    timer: deps.timer ?? realTimer,
    onRateLimited: (endpoint, header) =>
      ctx.checks.push({
        id: 'rate-limit.met',
        endpoint,
        name: RETRY_AFTER_NAME,
        ...retryAfterVerdict(header, limits.maxRetryAfterMs),
      }),
  });
  let unreachable: string | undefined;
  let keyRefused = false;
  try {
    await checkBalance(ctx);
    await checkAuth(ctx);
    await checkValidation(ctx);
    await checkGuardedValidation(ctx);
    await checkPaidReads(ctx);
    await checkGenerate(ctx);
    await checkRateLimit(ctx);
  } catch (error) {
    if (error instanceof UnreachableError) unreachable = error.message;
    else if (error instanceof KeyRefusedError) keyRefused = true;
    else throw error;
  }
  const report: VerifyReport = {
    origin: options.origin,
    checks: ctx.checks,
    credits_spent: ctx.budget.spent,
    spend_limit: options.spend,
    ...(unreachable ? { unreachable } : {}),
    ...(keyRefused ? { key_refused: true as const } : {}),
    summary: summarize(ctx.checks),
  };
  return redactReport(report, options.apiKey);
}
