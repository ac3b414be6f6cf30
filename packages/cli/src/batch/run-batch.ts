// The worker pool: `concurrency` profiles at a time, each taking its reservation from the
// budget before its request goes out. Started ones from an earlier run go first.

import type { Budget, StopReason } from './budget.js';
import type { BatchReporter } from './report.js';
import { type ProfileRun, runProfile } from './run-profile.js';
import { FINISHED, type ProfileProgress } from './state-records.js';

interface PoolOptions {
  run: ProfileRun;
  budget: Budget;
  reporter: BatchReporter;
  /** Ids to run, with their recorded progress when they were started and not ended. */
  queue: Array<{ id: string; open: ProfileProgress | undefined }>;
  cost: number;
  concurrency: number;
}

interface PoolResult {
  ended: number;
  finished: number;
  failed: Array<{ profile_id: string; status: string; error?: string }>;
  creditsCharged: number;
  /**
   * Profiles interrupted mid-turn: their request may have started a job, which keeps running on the
   * server, so each keeps its reservation (the state file leaves them open for a rerun).
   */
  running: number;
  stopped: StopReason | 'interrupted' | undefined;
}

export async function runPool(options: PoolOptions): Promise<PoolResult> {
  const { run, budget, reporter, queue, cost } = options;
  const result: PoolResult = {
    ended: 0,
    finished: 0,
    failed: [],
    creditsCharged: 0,
    running: 0,
    stopped: undefined,
  };
  const stop = (reason: PoolResult['stopped']) => {
    result.stopped ??= reason;
  };
  run.signal.addEventListener('abort', () => stop('interrupted'), { once: true });

  async function worker(): Promise<void> {
    for (;;) {
      if (result.stopped) return;
      const next = queue.shift();
      if (!next) return;
      if (next.open) budget.adopt();
      else {
        const refused = await budget.reserve(cost);
        if (refused) stop(refused);
        if (refused || result.stopped) {
          if (!refused) budget.settle(cost, 0);
          return;
        }
      }
      const outcome = await runProfile(run, next.id, next.open);
      if (outcome.kind === 'stopped') {
        // Nothing charged for a 402; otherwise the request may hold a reservation until a rerun settles it.
        budget.settle(cost, outcome.reason === 'balance' ? 0 : cost);
        reporter.stopped(next.id);
        if (outcome.reason === 'interrupted') result.running++;
        if (outcome.reason === 'unresolved') {
          result.failed.push({
            profile_id: next.id,
            status: 'unresolved',
            error: `${outcome.error}; rerun to resume`,
          });
        } else stop(outcome.reason);
        continue;
      }
      const { record } = outcome;
      budget.settle(cost, record.credits_charged);
      result.ended++;
      result.creditsCharged += record.credits_charged;
      const finished = FINISHED.has(record.status);
      if (finished) result.finished++;
      else
        result.failed.push({
          profile_id: record.profile_id,
          status: record.status,
          ...(record.error ? { error: record.error } : {}),
        });
      reporter.ended(record, finished);
    }
  }

  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return result;
}
