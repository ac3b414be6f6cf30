import { describe, expect, it } from 'vitest';
import { ConfigError, normalizeConfig, parseConfigText } from './config.js';

describe('mock config', () => {
  it('has one demo account without a config', () => {
    const config = normalizeConfig();
    expect(config.accounts).toEqual([
      expect.objectContaining({ id: 'demo', apiKeys: ['demo-key'], credits: 1000 }),
    ]);
    expect(config.accounts[0]!.pricing).toMatchObject({
      read_credits: 1,
      generation_credits: 100,
      credit_price_cents: 5,
    });
    expect(config.payments).toBe('enabled');
  });

  it('fills pricing defaults around what an account sets', () => {
    const config = normalizeConfig({
      accounts: [{ id: 'a', apiKeys: ['test-key'], pricing: { requests_per_minute: 5 } }],
    });
    expect(config.accounts[0]!.pricing).toEqual({
      read_credits: 1,
      generation_credits: 100,
      credit_price_cents: 5,
      queued_timeout_minutes: 30,
      requests_per_minute: 5,
      min_purchase_credits: 10,
      max_purchase_credits: 100000,
    });
  });

  it.each([
    [{ accounts: [{ id: 'a', apiKeys: [] }] }, 'accounts.0.apiKeys'],
    // Under 8 characters a key is an ordinary word, which redacting it would rewrite everywhere.
    [{ accounts: [{ id: 'a', apiKeys: ['key-a-long-enough', 'k'] }] }, 'accounts.0.apiKeys.1'],
    [
      { accounts: [{ id: 'a', apiKeys: ['SEVEN-7'] }] },
      'accounts.0.apiKeys.0: an API key has at least 8 characters',
    ],
    [{ accounts: [{ id: 'a', apiKeys: ['test-key'], credits: -1 }] }, 'accounts.0.credits'],
    [
      { accounts: [{ id: 'a', apiKeys: ['test-key'], pricing: { read_credits: 0 } }] },
      'accounts.0.pricing.read_credits',
    ],
    [{ payments: 'sometimes' }, 'payments'],
    [{ jobs: { queuedMs: 'fast' } }, 'jobs.queuedMs'],
    [{ unknown: true }, '(root)'],
    [
      {
        accounts: [
          { id: 'a', apiKeys: ['test-key'] },
          { id: 'b', apiKeys: ['test-key'] },
        ],
      },
      'accounts.1.apiKeys',
    ],
    [{ faults: { rules: [{ kind: 'explode', probability: 0.1 }] } }, 'faults.rules.0.kind'],
    [{ faults: { rules: [{ kind: 'fail', probability: 1.5 }] } }, 'faults.rules.0.probability'],
    [
      { faults: { rules: [{ kind: 'fail', route: 'GET /_mock/ledger', probability: 0.1 }] } },
      'faults.rules.0.route',
    ],
    [{ faults: { seed: -1 } }, 'faults.seed'],
    [
      {
        faults: {
          rules: [
            { kind: 'fail', probability: 0.7 },
            { kind: 'lost', probability: 0.7 },
          ],
        },
      },
      'faults.rules',
    ],
  ])('refuses %j naming %s', (input, field) => {
    expect(() => normalizeConfig(input)).toThrow(ConfigError);
    expect(() => normalizeConfig(input)).toThrow(field);
  });

  it('refuses text that is not JSON', () => {
    expect(() => parseConfigText('{')).toThrow(/not JSON/);
  });

  it('says where the JSON breaks, never the text there (which may be an API key)', () => {
    const keyed = '{"accounts":[{"id":"acme","apiKeys":[sk-live-SUPERSECRET-0123456789]}]}';
    expect(() => parseConfigText(keyed)).toThrow(/not JSON/);
    expect(() => parseConfigText(keyed)).not.toThrow(/sk-|SUPER|acme|apiKeys/);
    const broken = '{\n  "accounts": [],\n  "jobs" {"queuedMs": 1}\n}';
    expect(() => parseConfigText(broken)).toThrow('Invalid mock config: not JSON (line 3, column 10)');
    expect(() => parseConfigText('{"accounts": []} x')).toThrow('not JSON (line 1, column 18)');
    expect(() => parseConfigText(`${'['.repeat(200_000)}x`)).toThrow(/^Invalid mock config: not JSON$/);
  });
});
