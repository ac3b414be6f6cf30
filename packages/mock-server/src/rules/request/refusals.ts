// 429 answers per account, counted for ever (the journal keeps only recent requests): the
// rate limit's own refusals and the spurious ones injected as faults, apart.
export interface RefusalCounts {
  rateLimited: number;
  injected: number;
}

export interface Refusals {
  count(accountId: string, source: 'rate-limit' | 'fault'): void;
  of(accountId: string): RefusalCounts;
}

export function createRefusals(): Refusals {
  const counts = new Map<string, RefusalCounts>();
  return {
    count(accountId, source) {
      let entry = counts.get(accountId);
      if (!entry) {
        entry = { rateLimited: 0, injected: 0 };
        counts.set(accountId, entry);
      }
      if (source === 'rate-limit') entry.rateLimited++;
      else entry.injected++;
    },
    of: (accountId) => ({ ...(counts.get(accountId) ?? { rateLimited: 0, injected: 0 }) }),
  };
}
