// What a batch shows while it runs: one live progress line on a terminal, plain lines on a
// pipe, or JSON Lines with --json (one object per event, the summary last).

import { safeJson, terminalSafe } from '@profile-articles/sdk/internal/terminal';
import type { Io } from '../terminal/io.js';
import { plural } from '../terminal/plural.js';
import { own } from '../terminal/terminal-io.js';
import type { EndRecord } from './run-profile.js';
import type { Operation } from './state-records.js';

export interface BatchSummary {
  event: 'summary';
  operation: Operation;
  state_file: string;
  profiles: number;
  duplicates: number;
  succeeded: number;
  failed: Array<{ profile_id: string; status: string; error?: string }>;
  skipped: number;
  left: number;
  /** Profiles interrupted mid-turn (their jobs go on on the server), and the credits reserved for them. */
  running: number;
  credits_reserved: number;
  credits_charged: number;
  credits_charged_total: number;
  stopped: 'budget' | 'balance' | 'interrupted' | null;
  exit_code: number;
  resume: string | null;
}

export type Mode = 'tty' | 'plain' | 'json';

/** Back to the start of the line and erase it, for the live progress line: the CLI's own codes. */
const CLEAR_LINE = own('\r\x1b[K');

export class BatchReporter {
  readonly #io: Io;
  readonly #mode: Mode;
  readonly #began = Date.now();
  #done = 0;
  #failed = 0;
  #running = 0;
  #left: number;
  #credits = 0;
  #ticker: ReturnType<typeof setInterval> | undefined;
  readonly #counted = new Set<string>();
  /** When each running profile's turn began, and the longest turn that has ended. */
  readonly #since = new Map<string, number>();
  #longestMs = 0;

  constructor(io: Io, mode: Mode, toRun: number) {
    this.#io = io;
    this.#mode = mode;
    this.#left = toRun;
    if (mode === 'tty') {
      this.#ticker = setInterval(() => this.#draw(), 1000);
      this.#ticker.unref?.();
    }
  }

  /** One event: a JSON line, or one line of text (a job's error in it stays on that line). */
  #emit(event: Record<string, unknown>, text: string): void {
    if (this.#mode === 'json') this.#io.stdout.write(`${safeJson(event)}\n`);
    else if (this.#mode === 'plain') this.#io.stdout.write(`${terminalSafe(text)}\n`);
  }

  skipped(profileId: string, reason: string): void {
    this.#emit({ event: 'skipped', profile_id: profileId, reason }, `skipped   ${profileId} (${reason})`);
  }

  /** Once per profile, when its first request goes out (or its recorded job is picked up again). */
  started(profileId: string, jobId: string | undefined, resumed: boolean): void {
    if (this.#counted.has(profileId)) return;
    this.#counted.add(profileId);
    this.#since.set(profileId, Date.now());
    this.#running++;
    this.#left--;
    const event = { event: 'started', profile_id: profileId, ...(jobId ? { job_id: jobId } : {}), resumed };
    const text = `started   ${profileId}${jobId ? ` (job ${jobId})` : ''}${resumed ? ' (resumed)' : ''}`;
    this.#emit(event, text);
    this.#draw();
  }

  ended(record: EndRecord, finished: boolean): void {
    const since = this.#since.get(record.profile_id);
    if (since !== undefined) this.#longestMs = Math.max(this.#longestMs, Date.now() - since);
    this.#since.delete(record.profile_id);
    this.#running--;
    this.#credits += record.credits_charged;
    if (finished) this.#done++;
    else this.#failed++;
    const { type: _type, at: _at, ...fields } = record;
    const event = { event: finished ? 'finished' : 'failed', ...fields };
    const why = record.error ? `: ${record.error}` : '';
    const text = `${(finished ? 'finished' : 'failed').padEnd(9)} ${record.profile_id} ${record.status}, ${plural(record.credits_charged, 'credit')}${why}`;
    if (this.#mode === 'tty' && !finished) this.#io.stderr.write(`${CLEAR_LINE}${terminalSafe(text)}\n`);
    this.#emit(event, text);
    this.#draw();
  }

  /** A profile whose turn ended without a record (stopped, interrupted, unresolved). */
  stopped(profileId: string): void {
    if (!this.#counted.delete(profileId)) return;
    this.#since.delete(profileId);
    this.#running--;
    this.#left++;
  }

  #draw(): void {
    if (this.#mode !== 'tty') return;
    const minutes = (Date.now() - this.#began) / 60_000;
    const ended = this.#done + this.#failed;
    const rate = minutes > 0 ? ended / minutes : 0;
    const remaining = this.#left + this.#running;
    const eta =
      rate > 0 && remaining > 0
        ? ` · ETA ${this.#stuck() ? '?' : formatDuration((remaining / rate) * 60_000)}`
        : '';
    const line = `done ${this.#done} · running ${this.#running} · failed ${this.#failed} · left ${this.#left} · ${plural(this.#credits, 'credit')} · ${rate.toFixed(1)}/min${eta}`;
    this.#io.stderr.write(`${CLEAR_LINE}${line}`);
  }

  /**
   * Whether a running profile has waited longer than any turn that ended took: the rate of the
   * others says nothing of when it ends (a stuck job showed "ETA 4s" for 30 minutes), so the ETA
   * is `?` until it ends.
   */
  #stuck(): boolean {
    const now = Date.now();
    for (const since of this.#since.values()) if (now - since > this.#longestMs) return true;
    return false;
  }

  summary(summary: BatchSummary): void {
    if (this.#ticker) clearInterval(this.#ticker);
    if (this.#mode === 'tty') this.#io.stderr.write(CLEAR_LINE);
    if (this.#mode === 'json') {
      this.#io.stdout.write(`${safeJson(summary)}\n`);
      return;
    }
    const lines = [
      `${summary.operation}: ${summary.succeeded} succeeded, ${summary.failed.length} failed, ${summary.skipped} skipped, ${summary.left} left; ${plural(summary.credits_charged, 'credit')} charged (${summary.credits_charged_total} by this state file in all).`,
    ];
    if (summary.running > 0)
      lines.push(
        `  ${plural(summary.running, 'profile')} interrupted while running: started jobs go on on the server; ${plural(summary.credits_reserved, 'credit')} reserved for them (charged if they succeed, refunded if not; a rerun picks them up).`,
      );
    for (const failure of summary.failed)
      lines.push(
        terminalSafe(
          `  failed ${failure.profile_id}: ${failure.status}${failure.error ? ` (${failure.error})` : ''}`,
        ),
      );
    if (summary.stopped === 'budget') lines.push('Stopped: the next profile would go past --max-credits.');
    if (summary.stopped === 'balance') lines.push('Stopped: the balance cannot cover the next profile.');
    if (summary.stopped === 'interrupted') lines.push('Interrupted: started jobs go on on the server.');
    if (summary.resume) lines.push(`Resume with: ${summary.resume}`);
    this.#io.stdout.write(`${lines.join('\n')}\n`);
  }
}

function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.max(1, Math.round(ms / 1000))}s`;
  return minutes < 60
    ? `${minutes}m`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
