// API keys to accounts. A key is looked up by its SHA-256, so the lookup takes the same time
// whatever prefix of a real key a caller guesses. A key found once is then found by itself,
// without the digest: that map holds real keys only, and a Map compares a guess's characters
// with a real key's only when their string hashes are equal, which the guess cannot choose.
import * as crypto from 'node:crypto';
import type { NormalizedAccount } from '../config.js';

export type Account = NormalizedAccount;

// Every API request digests its key: the one-shot `crypto.hash` (Node 20.12+) skips building a
// Hash object each time; older Node 20 releases take the same digest the long way.
const digest: (key: string) => string =
  typeof crypto.hash === 'function'
    ? (key) => crypto.hash('sha256', key, 'base64')
    : (key) => crypto.createHash('sha256').update(key).digest('base64');

export interface Accounts {
  byApiKey(key: string): Account | undefined;
  all(): readonly Account[];
}

export function createAccounts(accounts: readonly Account[]): Accounts {
  const byDigest = new Map<string, Account>();
  for (const account of accounts) {
    for (const key of account.apiKeys) byDigest.set(digest(key), account);
  }
  // Bounded by the configured keys: only a key that names an account is kept.
  const found = new Map<string, Account>();
  return {
    byApiKey(key) {
      let account = found.get(key);
      if (account) return account;
      account = byDigest.get(digest(key));
      if (account) found.set(key, account);
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
