// API keys to accounts. Keys are looked up by their SHA-256, so the lookup takes the same
// time whatever prefix of a real key a caller guesses.
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
  return {
    byApiKey: (key) => byDigest.get(digest(key)),
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
