// API keys to accounts. A key is looked up by its SHA-256, so the lookup takes the same time
// whatever prefix of a real key a caller guesses. An Authorization header that named an
// account once is then found by itself, without parsing or digesting it again: that map holds
// headers of real keys only, and a Map compares a guess's characters with a stored header's
// only when their string hashes are equal, which the guess cannot choose.
import * as crypto from 'node:crypto';
import type { PricingSchema } from '@profile-articles/sdk/schemas';
import type * as z from 'zod/mini';

export interface NormalizedAccount {
  id: string;
  apiKeys: string[];
  credits: number;
  pricing: z.infer<typeof PricingSchema> & { credit_price_cents: number };
}

export type Account = NormalizedAccount;

// Every API request digests its key: the one-shot `crypto.hash` (Node 20.12+) skips building a
// Hash object each time; older Node 20 releases take the same digest the long way.
const digest: (key: string) => string =
  typeof crypto.hash === 'function'
    ? (key) => crypto.hash('sha256', key, 'base64')
    : (key) => crypto.createHash('sha256').update(key).digest('base64');

export interface Accounts {
  byApiKey(key: string): Account | undefined;
  /** The account an `Authorization: Bearer <key>` header names, or undefined. */
  byAuthorization(header: string | null | undefined): Account | undefined;
  all(): readonly Account[];
}

const HEADERS_KEPT = 256;

export function createAccounts(accounts: readonly Account[]): Accounts {
  const byDigest = new Map<string, Account>();
  for (const account of accounts) {
    for (const key of account.apiKeys) byDigest.set(digest(key), account);
  }
  const byApiKey = (key: string) => byDigest.get(digest(key));
  // Only a header that names an account is kept; emptied when full, since one key can be
  // written in several headers (the scheme's case, the spaces).
  const found = new Map<string, Account>();
  return {
    byApiKey,
    byAuthorization(header) {
      if (!header) return undefined;
      let account = found.get(header);
      if (account) return account;
      const key = bearerToken(header);
      account = key === undefined ? undefined : byApiKey(key);
      if (account) {
        if (found.size >= HEADERS_KEPT) found.clear();
        found.set(header, account);
      }
      return account;
    },
    all: () => accounts,
  };
}

/** The key from `Authorization: Bearer <key>`, or undefined. */
export function bearerToken(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Compares a secret by digest, so the time taken tells nothing about the expected one. */
export function matchesSecret(given: string, expected: string): boolean {
  return digest(given) === digest(expected);
}
