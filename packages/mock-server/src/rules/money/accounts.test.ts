import { describe, expect, it } from 'vitest';
import { normalizeConfig } from '../../config/config.js';
import { bearerToken, createAccounts } from './accounts.js';

describe('accounts', () => {
  const accounts = createAccounts(
    normalizeConfig({
      accounts: [
        { id: 'a', apiKeys: ['key-0001', 'key-0002'] },
        { id: 'b', apiKeys: ['key-0003'] },
      ],
    }).accounts,
  );

  it('find the account of every key, and nothing for other strings', () => {
    expect(accounts.byApiKey('key-0001')?.id).toBe('a');
    expect(accounts.byApiKey('key-0002')?.id).toBe('a');
    expect(accounts.byApiKey('key-0003')?.id).toBe('b');
    expect(accounts.byApiKey('key-')).toBeUndefined();
    expect(accounts.byApiKey('')).toBeUndefined();
  });

  it('find the account a bearer header names, again and again, and nothing for other headers', () => {
    for (let round = 0; round < 3; round++) {
      expect(accounts.byAuthorization('Bearer key-0001')?.id).toBe('a');
      expect(accounts.byAuthorization('bearer   key-0001 ')?.id).toBe('a');
      expect(accounts.byAuthorization('Bearer key-0003')?.id).toBe('b');
      expect(accounts.byAuthorization('Bearer KEY-0001')).toBeUndefined();
      expect(accounts.byAuthorization('Bearer key-0001 x')).toBeUndefined();
      expect(accounts.byAuthorization('Basic key-0001')).toBeUndefined();
      expect(accounts.byAuthorization('')).toBeUndefined();
      expect(accounts.byAuthorization(undefined)).toBeUndefined();
    }
  });

  it('still find every account after more header spellings than are kept', () => {
    for (let spaces = 1; spaces <= 600; spaces++)
      expect(accounts.byAuthorization(`Bearer${' '.repeat(spaces)}key-000${spaces % 2 ? 1 : 3}`)?.id).toBe(
        spaces % 2 ? 'a' : 'b',
      );
  });

  it('read only well-formed bearer headers', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
