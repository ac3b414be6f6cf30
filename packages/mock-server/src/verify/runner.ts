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
import { OutOfTimeError, startRunBudget } from './run-budget.js';

export interface VerifyDeps {
  fetch?: typeof fetch;
  /** Real sleep by default; tests pass one that moves the mock's clock. */
  wait?: (ms: number) => Promise<void>;
  /** verify's limits (limits.ts); tests may lower one. */
  limits?: Partial<VerifyLimits>;
  /** Starts each probe's time limit; setTimeout by default, tests expire it on an event. */
  timer?: Timer;
  /** Starts the run's budget (limits.runBudgetMs); setTimeout by default, tests expire it on an event. */
  runTimer?: Timer;
  /** Told as each step starts (its name, 0-based place and the number of steps): progress for a person. */
  onStep?: (name: string, index: number, total: number) => void;
}

/** The run's checks in order, each named for the row that says it was cut short or not run. */
const STEPS: ReadonlyArray<readonly [string, (ctx: RunContext) => Promise<void>]> = [
  ['balance', checkBalance],
  ['auth', checkAuth],
  ['validation', checkValidation],
  ['guarded-validation', checkGuardedValidation],
  ['paid-read', checkPaidReads],
  ['generate', checkGenerate],
  ['rate-limit', checkRateLimit],
];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runVerify(options: VerifyOptions, deps: VerifyDeps = {}): Promise<VerifyReport> {
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const runBudget = startRunBudget(limits.runBudgetMs, deps.runTimer ?? realTimer);
  const wait = runBudget.guardWait(deps.wait ?? sleep);
  const ctx: RunContext = {
    options,
    wait,
    limits,
    pricing: PricingSchema.parse({}),
    budget: new Budget(options.spend),
    checks: [],
    probe: undefined as never,
  };
  const probe = createProbe({
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
  ctx.probe = (request) => {
    runBudget.check();
    return probe(request);
  };
  let unreachable: string | undefined;
  let keyRefused = false;
  let step = 0;
  try {
    for (; step < STEPS.length; step++) {
      const [name, run] = STEPS[step]!;
      deps.onStep?.(name, step, STEPS.length);
      await run(ctx);
    }
  } catch (error) {
    if (error instanceof UnreachableError) unreachable = error.message;
    else if (error instanceof KeyRefusedError) keyRefused = true;
    else if (error instanceof OutOfTimeError) recordOutOfTime(ctx, step, error.message);
    else throw error;
  } finally {
    runBudget.stop();
  }
  const report: VerifyReport = {
    origin: options.origin,
    checks: ctx.checks,
    credits_spent: ctx.budget.spent,
    spend_limit: options.spend,
    ...(unreachable ? { unreachable } : {}),
    ...(runBudget.expired() ? { out_of_time: runBudget.message } : {}),
    ...(keyRefused ? { key_refused: true as const } : {}),
    summary: summarize(ctx.checks),
  };
  return redactReport(report, options.apiKey);
}

/** The step the budget ran out in is inconclusive; each after it is skipped: a row each, saying why. */
function recordOutOfTime(ctx: RunContext, cut: number, why: string) {
  STEPS.slice(cut).forEach(([name], i) => {
    ctx.checks.push({
      id: `run.${name}`,
      endpoint: '(run)',
      name: `the ${name} checks`,
      status: i === 0 ? 'inconclusive' : 'skipped',
      reason: i === 0 ? `cut short: ${why}` : `not run: ${why}`,
    });
  });
}
