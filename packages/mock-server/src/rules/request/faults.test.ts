import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config-error.js';
import { createFaults, FaultsConfigSchema, parseFaults } from './faults.js';

describe('faults', () => {
  it('fault about the share of requests their probabilities give, per route, from the seed', () => {
    const faults = createFaults(
      FaultsConfigSchema.parse({
        seed: 7,
        rules: [
          { kind: 'fail', probability: 0.1 },
          { kind: 'lost', route: 'POST /api/v1/articles', probability: 0.2 },
        ],
      }),
    );
    let other = 0;
    for (let i = 0; i < 10_000; i++) if (faults.draw('GET /api/v1/credits')) other++;
    expect(faults.counts().lost).toBe(0);
    for (let i = 0; i < 10_000; i++) faults.draw('POST /api/v1/articles');
    const counts = faults.counts();
    expect(other / 10_000).toBeCloseTo(0.1, 1);
    expect((counts.fail - other) / 10_000).toBeCloseTo(0.1, 1);
    expect(counts.lost / 10_000).toBeCloseTo(0.2, 1);
  });

  it('names the field at fault', () => {
    expect(() => parseFaults({ rules: [{ kind: 'fail', probability: -1 }] }, 'faults')).toThrow(ConfigError);
    expect(() => parseFaults({ rules: [{ kind: 'fail', probability: -1 }] }, 'faults')).toThrow(
      'faults.rules.0.probability',
    );
  });
});
