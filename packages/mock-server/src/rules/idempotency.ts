// Idempotency keys, per account: the first request's outcome is kept for 24 hours of the
// mock's clock, and a replay returns it without charging again. Only requests that did
// something (200 or 202) are kept, so a key that met a 402 can be used again after buying.
import type { ArticleSeed } from './articles.js';
import { innerMap } from './inner-map.js';
import type { JobKind } from './jobs.js';
import type { Scheduler } from './scheduler.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/** A generate's outcome: its job, or the article version it answered with and what it cost. */
export type StoredOutcome =
  | { kind: 'job'; jobId: string }
  | { kind: 'read'; seed: ArticleSeed; creditsCharged: number };

export interface StoredRequest {
  operation: JobKind;
  profileId: string;
  outcome: StoredOutcome;
}

export type Lookup =
  | { kind: 'new' }
  | { kind: 'replay'; outcome: StoredOutcome }
  | { kind: 'mismatch'; stored: StoredRequest };

export interface IdempotencyKeys {
  lookup(accountId: string, key: string, operation: JobKind, profileId: string): Lookup;
  remember(accountId: string, key: string, request: StoredRequest, at: number): void;
  /** Keys held now. */
  readonly size: number;
}

export function createIdempotencyKeys(scheduler: Scheduler): IdempotencyKeys {
  // One map of keys per account (see inner-map.ts).
  const accounts = new Map<string, Map<string, StoredRequest>>();
  let size = 0;

  return {
    lookup(accountId, key, operation, profileId) {
      const stored = accounts.get(accountId)?.get(key);
      if (!stored) return { kind: 'new' };
      if (stored.operation !== operation || stored.profileId !== profileId)
        return { kind: 'mismatch', stored };
      return { kind: 'replay', outcome: stored.outcome };
    },
    remember(accountId, key, request, at) {
      const keys = innerMap(accounts, accountId);
      if (!keys.has(key)) size++;
      keys.set(key, request);
      scheduler.at(at + IDEMPOTENCY_TTL_MS, () => {
        if (keys.get(key) !== request) return;
        keys.delete(key);
        size--;
        if (keys.size === 0 && accounts.get(accountId) === keys) accounts.delete(accountId);
      });
    },
    get size() {
      return size;
    },
  };
}
