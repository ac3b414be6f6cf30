// client.withOptions(): a client per tenant or per job, made from another, against the real mock
// over HTTP (its accounts and ledger say whose key a call went with and what was charged).
import { useMockServer } from '@profile-articles/test-utils/mock-suite';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  InvalidArgumentError,
  ProfileArticles,
  SpendLimitError,
  TimeoutError,
} from '../src/node.js';
import { TRANSPORTS } from './scripted-client.js';

const mock = useMockServer({
  accounts: [
    { id: 'acme', apiKeys: ['key-acme-derived'], credits: 1_000, pricing: { requests_per_minute: 100_000 } },
    {
      id: 'globex',
      apiKeys: ['key-globex-derived'],
      credits: 300,
      pricing: { requests_per_minute: 100_000 },
    },
  ],
  jobs: { queuedMs: 60_000, runningMs: 60_000 },
});

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const client = (extra: ClientOptions = {}) =>
    new ProfileArticles({ apiKey: 'key-acme-derived', baseUrl: mock.url, ...options, ...extra });

  it('takes the given options over the original’s, the key included; the original is unchanged', async () => {
    const original = client({ timeoutMs: 5_000, defaultHeaders: { 'x-team': 'a' } });
    const tenant = original.withOptions({ apiKey: 'key-globex-derived', timeoutMs: 9_000 });
    expect(tenant).toBeInstanceOf(ProfileArticles);
    await expect(tenant.credits.balance()).resolves.toMatchObject({ credits: 300 });
    await expect(original.credits.balance()).resolves.toMatchObject({ credits: 1_000 });
    expect(tenant.toJSON()).toMatchObject({ timeoutMs: 9_000, baseUrl: mock.url, apiKey: '[redacted]' });
    expect(original.toJSON()).toMatchObject({ timeoutMs: 5_000 });
    expect(JSON.stringify(tenant)).not.toContain('key-globex-derived');
    // Derived again, from the derived: its options all the way down.
    expect(tenant.withOptions({ maxRetries: 0 }).toJSON()).toMatchObject({ timeoutMs: 9_000, maxRetries: 0 });
    expect(() => original.withOptions({ timeoutMs: -1 })).toThrow(InvalidArgumentError);
  });

  it('without spendLimit it shares the original’s budget and spent; with one, it has its own', async () => {
    const original = client({ spendLimit: 150 });
    const shared = original.withOptions({ timeoutMs: 9_000 });
    await shared.articles.generate('derived-one');
    expect(original.spent).toBe(100);
    expect(shared.spent).toBe(100);
    // One budget: the original is refused what the derived client spent.
    await rejectionOf(original.articles.generate('derived-two'), SpendLimitError);
    const own = original.withOptions({ spendLimit: 1_000 });
    expect(own.spent).toBe(0);
    await own.articles.generate('derived-three');
    expect(own.spent).toBe(100);
    expect(original.spent).toBe(100);
    const charges = mock.service
      .journal()
      .filter((entry) => entry.path === '/api/v1/articles' && entry.status === 202);
    expect(charges).toHaveLength(2);
  });

  it('shares the original’s pacer for the same key, origin and pacing: one window for one account', async () => {
    // One request a minute: the original's first call takes the window's only slot.
    const original = client({ pacing: 1 });
    await original.credits.balance();
    const same = original.withOptions({ timeoutMs: 9_000 });
    // Its call waits for the original's window: the deadline ends the wait, nothing is sent.
    const before = mock.service.journal().length;
    await rejectionOf(same.credits.balance({ deadlineMs: 300 }), TimeoutError);
    expect(mock.service.journal()).toHaveLength(before);
    // Another key is another account, with a window of its own.
    await expect(
      original.withOptions({ apiKey: 'key-globex-derived' }).credits.balance({ deadlineMs: 10_000 }),
    ).resolves.toMatchObject({ credits: 300 });
    // So is another pacing.
    await expect(original.withOptions({ pacing: false }).credits.balance()).resolves.toMatchObject({
      credits: 1_000,
    });
  });
});
