import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config-error.js';
import { seededRandom } from '../seeded-random.js';
import { createFaults, drawLatency, FaultsConfigSchema, parseFaults } from './faults.js';

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

describe('latency distributions', () => {
  const rule = (extra: object) =>
    FaultsConfigSchema.parse({ rules: [{ kind: 'latency', probability: 1, ...extra }] }).rules[0]!;

  it('draws a uniform delay within its range, the same from the same seed', () => {
    const uniform = rule({ distribution: 'uniform', minMs: 10, maxMs: 20 });
    const draws = (seed: number) => {
      const faults = createFaults(FaultsConfigSchema.parse({ seed, rules: [uniform] }));
      return Array.from({ length: 200 }, () => faults.latencyOf(uniform));
    };
    const first = draws(3);
    expect(Math.min(...first)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...first)).toBeLessThanOrEqual(20);
    expect(new Set(first).size).toBeGreaterThan(5);
    expect(draws(3)).toEqual(first);
    expect(draws(4)).not.toEqual(first);
  });

  it('draws a lognormal delay around its median, capped at 60 s', () => {
    const lognormal = rule({ distribution: 'lognormal', medianMs: 100, sigma: 0.5 });
    const sorted = Array.from({ length: 2001 }, (_, i) => drawLatency(lognormal, seededRandom(i + 1))).sort(
      (a, b) => a - b,
    );
    expect(sorted[1000]).toBeGreaterThan(85);
    expect(sorted[1000]).toBeLessThan(115);
    const wide = rule({ distribution: 'lognormal', medianMs: 50_000, sigma: 10 });
    for (let i = 1; i < 50; i++) expect(drawLatency(wide, seededRandom(i))).toBeLessThanOrEqual(60_000);
  });

  it('refuses a distribution without its parameters, naming the field', () => {
    expect(() =>
      parseFaults(
        { rules: [{ kind: 'latency', probability: 1, distribution: 'uniform', minMs: 5 }] },
        'faults',
      ),
    ).toThrow('faults.rules.0.minMs');
    expect(() =>
      parseFaults(
        { rules: [{ kind: 'fail', probability: 1, distribution: 'uniform', minMs: 1, maxMs: 2 }] },
        'faults',
      ),
    ).toThrow('faults.rules.0.distribution');
  });
});
