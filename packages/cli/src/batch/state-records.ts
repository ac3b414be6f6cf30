// The records of a batch state file (JSON Lines, docs/bulk.md) and what they add up to.
export type Operation = 'generate' | 'update' | 'read';

/** How a profile ended. `succeeded`, `existing` (generate found an article) and `read` are finished. */
export type EndStatus =
  | 'succeeded'
  | 'existing'
  | 'read'
  | 'failed'
  | 'cancelled'
  | 'not_found'
  | 'conflict'
  | 'error';

export type StateRecord =
  | { type: 'batch'; operation: Operation; at: string }
  | { type: 'send'; profile_id: string; idempotency_key?: string; at: string }
  | { type: 'job'; profile_id: string; job_id: string; credits_charged: number; at: string }
  | {
      type: 'end';
      profile_id: string;
      status: EndStatus;
      credits_charged: number;
      job_id?: string;
      error?: string;
      at: string;
    };

export const FINISHED: ReadonlySet<EndStatus> = new Set(['succeeded', 'existing', 'read']);

export interface ProfileProgress {
  /** The last request recorded as about to be sent, and not yet ended. */
  open?: { idempotencyKey: string | undefined; jobId: string | undefined };
  end?: Extract<StateRecord, { type: 'end' }>;
}

interface StateSummary {
  operation: Operation | undefined;
  profiles: Map<string, ProfileProgress>;
  /** Credits charged by every ended profile of every run. */
  creditsCharged: number;
}

/** Folds the records in order: a later `send` reopens a profile (a retry of a failed one). */
export function summarize(records: readonly StateRecord[]): StateSummary {
  const profiles = new Map<string, ProfileProgress>();
  let operation: Operation | undefined;
  let creditsCharged = 0;
  for (const record of records) {
    if (record.type === 'batch') {
      operation ??= record.operation;
      continue;
    }
    const progress = profiles.get(record.profile_id) ?? {};
    profiles.set(record.profile_id, progress);
    if (record.type === 'send') {
      progress.open = { idempotencyKey: record.idempotency_key, jobId: undefined };
    } else if (record.type === 'job') {
      if (progress.open) progress.open.jobId = record.job_id;
    } else {
      delete progress.open;
      progress.end = record;
      creditsCharged += record.credits_charged;
    }
  }
  return { operation, profiles, creditsCharged };
}
