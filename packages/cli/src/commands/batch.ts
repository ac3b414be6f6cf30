// batch <generate|update|read>: a list of profiles, paced to the account's rate limit, within a
// budget, resumable after any crash from its state file. See docs/bulk.md.
import { existsSync, rmSync } from 'node:fs';
import { safeJson } from '@profile-articles/sdk/internal/terminal';
import { Budget } from '../batch/budget.js';
import { confirmOnTerminal } from '../batch/confirm.js';
import { lockStateFile } from '../batch/lock.js';
import { parseProfileList } from '../batch/profile-list.js';
import { defaultStatePath, readInput } from '../batch/read-input.js';
import { BatchReporter, type BatchSummary, type Mode } from '../batch/report.js';
import { runPool } from '../batch/run-batch.js';
import { openStateFile, type StateFile } from '../batch/state-file.js';
import {
  FINISHED,
  OPERATIONS,
  type Operation,
  type ProfileProgress,
  summarize,
} from '../batch/state-records.js';
import { CliError, QuietInterrupt } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Context } from '../settings/context.js';
import { budgetedCostOf } from '../shell/paid-operation.js';
import { shellQuote } from '../shell/shell-quote.js';
import { plural } from '../terminal/plural.js';

/** "Start? [y/N]" answered no: not an error, so no "Error:" line (the command prints "Not started."); exit 1. */
class NotStarted extends CliError {
  override name = 'NotStarted';

  constructor() {
    super('', ExitCode.Failure);
  }
}

interface BatchOptions {
  from?: string;
  state?: string;
  concurrency?: string;
  maxCredits?: string;
  partial?: boolean;
  retryFailed?: boolean;
  out?: string;
  yes?: boolean;
}

function integer(raw: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new CliError(`${flag} must be a whole number from ${min} to ${max}, got "${raw}"`, ExitCode.Usage);
  }
  return value;
}

export function resumeCommand(
  operation: Operation,
  from: string,
  state: string,
  options: BatchOptions,
): string {
  const parts = [operation, '--from', from, '--state', state];
  if (options.maxCredits !== undefined) parts.push('--max-credits', options.maxCredits);
  if (options.partial) parts.push('--partial');
  if (options.out !== undefined) parts.push('--out', options.out);
  // Pasted into a shell: each path quoted so that bash reads it back whole (a ' in it once ended the quotes).
  return `profile-articles batch ${parts.map(shellQuote).join(' ')}${from === '-' ? ' < LIST' : ''}`;
}

export async function batchCommand(ctx: Context, operationArg: string, options: BatchOptions): Promise<void> {
  // Its output is JSON Lines, one event at a time, not one value a filter could take whole.
  if (ctx.options.jq !== undefined) {
    throw new CliError(
      'batch does not take --jq: it prints JSON Lines.',
      ExitCode.Usage,
      'Pipe them to jq: profile-articles batch read --from ids.txt --json --yes | jq …',
    );
  }
  if (!OPERATIONS.includes(operationArg as Operation)) {
    throw new CliError(`batch needs generate, update or read, got "${operationArg}"`, ExitCode.Usage);
  }
  const operation = operationArg as Operation;
  const { io, out } = ctx;
  const concurrency = integer(options.concurrency, '--concurrency', 1, 64) ?? 4;
  const maxCredits = integer(options.maxCredits, '--max-credits', 0, Number.MAX_SAFE_INTEGER);
  const from = options.from ?? (io.stdin.isTTY ? undefined : '-');
  if (from === undefined)
    throw new CliError('batch needs a list: --from FILE, or --from - for stdin.', ExitCode.Usage);
  if (from === '-' && options.state === undefined) {
    throw new CliError(
      'With --from -, name the state file: --state FILE.',
      ExitCode.Usage,
      'A rerun needs it to resume.',
    );
  }
  const statePath = options.state ?? defaultStatePath(from, operation);
  const list = parseProfileList(await readInput(io, from));

  // A run refused before its first profile (over budget, answered n) leaves no new state file.
  const stateExisted = existsSync(statePath);
  let started = false;
  const unlock = lockStateFile(statePath);
  let state: StateFile;
  try {
    state = openStateFile(statePath);
  } catch (error) {
    unlock();
    throw error;
  }
  try {
    const recorded = summarize(state.records);
    if (recorded.operation && recorded.operation !== operation) {
      throw new CliError(
        `The state file ${statePath} belongs to a batch ${recorded.operation}, not ${operation}.`,
        ExitCode.Usage,
        'Use another --state file for another operation.',
      );
    }
    if (!recorded.operation) state.append({ type: 'batch', operation, at: new Date().toISOString() });

    const mode: Mode = out.json ? 'json' : out.spinnerEnabled ? 'tty' : 'plain';
    const skips: Array<{ id: string; reason: string }> = [];
    const resumed: Array<{ id: string; open: ProfileProgress }> = [];
    const fresh: string[] = [];
    for (const id of list.ids) {
      const progress = recorded.profiles.get(id);
      if (progress?.open) resumed.push({ id, open: progress });
      else if (progress?.end && FINISHED.has(progress.end.status))
        skips.push({ id, reason: 'finished earlier' });
      else if (progress?.end && !options.retryFailed)
        skips.push({ id, reason: `${progress.end.status} earlier; --retry-failed runs it again` });
      else fresh.push(id);
    }

    // Hours of work: pace to the account's limit, wait out longer Retry-Afters and retry more.
    const client = await ctx.client({ pacing: 'auto', maxRetries: 5, maxRetryDelayMs: 120_000 });
    const balance = await client.credits.balance();
    // Held per request toward --max-credits and the balance (the plan's worst case too).
    const cost = budgetedCostOf(operation, balance.pricing);
    const toSend = fresh.length + resumed.filter((r) => r.open.open?.jobId === undefined).length;
    const worstCase = toSend * cost;
    // Toward --max-credits: what the state file already spent, the reservations of started ones, and the rest.
    const committed = recorded.creditsCharged + resumed.length * cost;
    const withJob = resumed.length - (toSend - fresh.length);
    if (mode === 'json') {
      io.stdout.write(
        `${safeJson({
          event: 'plan',
          operation,
          profiles: list.ids.length,
          new: fresh.length,
          resume: resumed.length,
          skip: skips.length,
          duplicates: list.duplicates,
          worst_case: worstCase,
          cost,
          balance: balance.credits,
          max_credits: maxCredits ?? null,
          spent_earlier: recorded.creditsCharged,
        })}\n`,
      );
    }
    out.note(
      `batch ${operation}: ${plural(list.ids.length, 'profile')} (${fresh.length} new, ${resumed.length} to resume, ${skips.length} to skip${list.duplicates ? `, ${plural(list.duplicates, 'duplicate line')}` : ''}). ` +
        `Worst case ${plural(worstCase, 'credit')} (${toSend} × ${cost}); balance ${balance.credits}` +
        `${maxCredits === undefined ? '' : `; --max-credits ${maxCredits}${recorded.creditsCharged ? ` (${recorded.creditsCharged} spent earlier)` : ''}`}.`,
    );
    const overBudget =
      maxCredits !== undefined && recorded.creditsCharged + withJob * cost + worstCase > maxCredits;
    const overBalance = worstCase > balance.credits;
    if ((overBudget || overBalance) && !options.partial) {
      throw new CliError(
        overBudget
          ? `The worst case (${worstCase} credits) is more than --max-credits ${maxCredits} allows.`
          : `The worst case (${worstCase} credits) is more than the balance (${balance.credits}).`,
        ExitCode.InsufficientCredits,
        overBudget
          ? 'Pass --partial to go as far as it allows, or raise --max-credits.'
          : 'Pass --partial to go as far as it allows, or buy credits (`profile-articles buy`).',
      );
    }
    if (!options.yes && io.stderr.isTTY && fresh.length + resumed.length > 0) {
      if (!(await confirmOnTerminal(io, 'Start?'))) {
        io.stderr.write('Not started.\n');
        throw new NotStarted();
      }
    }
    started = true;

    const reporter = new BatchReporter(io, mode, fresh.length + resumed.length);
    for (const skip of skips) reporter.skipped(skip.id, skip.reason);
    const controller = new AbortController();
    const onSigint = () => controller.abort(new Error('interrupted'));
    process.once('SIGINT', onSigint);
    const sdk = await import('@profile-articles/sdk');
    const settings = await ctx.settings();
    const pool = await runPool({
      run: {
        sdk,
        client,
        state,
        operation,
        prices: { read: balance.pricing.read_credits, generation: balance.pricing.generation_credits },
        cost,
        pollIntervalMs: settings.pollIntervalMs,
        outDir: options.out,
        signal: controller.signal,
        onStarted: (id, jobId, isResumed) => reporter.started(id, jobId, isResumed),
      },
      budget: new Budget({ maxCredits, balance: balance.credits, committed }),
      reporter,
      queue: [...resumed, ...fresh.map((id) => ({ id, open: undefined }))],
      cost,
      concurrency,
    }).finally(() => process.off('SIGINT', onSigint));

    const left = fresh.length + resumed.length - pool.ended;
    const exitCode =
      pool.stopped === 'interrupted'
        ? ExitCode.Interrupted
        : pool.stopped
          ? ExitCode.InsufficientCredits
          : pool.failed.length
            ? ExitCode.JobFailed
            : ExitCode.Success;
    const summary: BatchSummary = {
      event: 'summary',
      operation,
      state_file: statePath,
      profiles: list.ids.length,
      duplicates: list.duplicates,
      succeeded: pool.finished,
      failed: pool.failed,
      skipped: skips.length,
      left,
      running: pool.running,
      credits_reserved: pool.running * cost,
      credits_charged: pool.creditsCharged,
      credits_charged_total: summarize(state.records).creditsCharged,
      stopped: pool.stopped ?? null,
      exit_code: exitCode,
      resume: left > 0 ? resumeCommand(operation, from, statePath, options) : null,
    };
    reporter.summary(summary);
    // Ctrl-C: the summary just said so ("Interrupted: started jobs go on…") with the command to
    // resume; a person reads nothing more. Under --json the error object still ends stderr.
    if (exitCode === ExitCode.Interrupted && mode !== 'json') throw new QuietInterrupt();
    if (exitCode !== ExitCode.Success) {
      const message = {
        [ExitCode.Interrupted]: 'Interrupted.',
        [ExitCode.InsufficientCredits]: `Stopped by the ${pool.stopped === 'balance' ? 'balance' : 'budget (--max-credits)'}.`,
        [ExitCode.JobFailed]: `${plural(pool.failed.length, 'profile')} did not succeed.`,
      }[exitCode as 130 | 5 | 3];
      // The summary above already says how to resume, except under --json where it is data.
      const hint = mode === 'json' && summary.resume ? `Resume with: ${summary.resume}` : undefined;
      throw new CliError(message, exitCode, hint);
    }
  } finally {
    state.close();
    if (!started && !stateExisted) rmSync(statePath, { force: true });
    unlock();
  }
}
