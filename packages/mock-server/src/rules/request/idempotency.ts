// Idempotency keys, per account: the first request's outcome is kept for 24 hours of the
// mock's clock, and a replay returns it without charging again. Only requests that did
// something (200 or 202) are kept, so a key that met a 402 can be used again after buying.

import { innerMap } from '../inner-map.js';
import type { ArticleSeed } from '../work/articles.js';
import type { JobKind } from '../work/jobs.js';
import type { Scheduler } from '../work/scheduler.js';

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

/** A kept key as --data saves it: whose, which, what, and when it expires. */
export interface SavedKey {
  accountId: string;
  key: string;
  request: StoredRequest;
  expiresAt: number;
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
  /** Every key held, for --data's snapshot. */
  dump(): SavedKey[];
  /** Keeps a saved key until its expiry (due at once if it has passed). */
  load(saved: SavedKey): void;
}

export function createIdempotencyKeys(scheduler: Scheduler): IdempotencyKeys {
  // One map of keys per account (see inner-map.ts).
  const accounts = new Map<string, Map<string, StoredRequest>>();
  // When each request's key expires: kept beside the requests (a WeakMap, so nothing is added
  // to what the hot path reads), for --data's snapshot.
  const expiries = new WeakMap<StoredRequest, number>();
  let size = 0;

  function keep(accountId: string, key: string, request: StoredRequest, expiresAt: number): void {
    const keys = innerMap(accounts, accountId);
    if (!keys.has(key)) size++;
    keys.set(key, request);
    expiries.set(request, expiresAt);
    scheduler.at(expiresAt, () => {
      if (keys.get(key) !== request) return;
      keys.delete(key);
      size--;
      if (keys.size === 0 && accounts.get(accountId) === keys) accounts.delete(accountId);
    });
  }

  return {
    lookup(accountId, key, operation, profileId) {
      const stored = accounts.get(accountId)?.get(key);
      if (!stored) return { kind: 'new' };
      if (stored.operation !== operation || stored.profileId !== profileId)
        return { kind: 'mismatch', stored };
      return { kind: 'replay', outcome: stored.outcome };
    },
    remember(accountId, key, request, at) {
      keep(accountId, key, request, at + IDEMPOTENCY_TTL_MS);
    },
    dump() {
      const saved: SavedKey[] = [];
      for (const [accountId, keys] of accounts)
        for (const [key, request] of keys)
          saved.push({ accountId, key, request, expiresAt: expiries.get(request) ?? 0 });
      return saved;
    },
    load: (saved) => keep(saved.accountId, saved.key, saved.request, saved.expiresAt),
    get size() {
      return size;
    },
  };
}
