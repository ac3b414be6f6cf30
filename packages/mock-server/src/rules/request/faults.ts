// Seeded fault injection on the API (never on the control endpoints): which fault, if any,
// a request meets. One draw per request decides it, so a run replays from its seed.
// This module only decides and counts; routes/inject-faults.ts applies the decision.
import { API_PREFIX, ENDPOINTS, type EndpointName } from '@profile-articles/sdk/internal';
import * as z from 'zod/mini';
import { ConfigError, describeIssues } from '../config-error.js';
import { seededRandom } from '../seeded-random.js';

export const FAULT_KINDS = [
  'fail',
  'lost',
  'reset',
  'latency',
  'rate-limit',
  'trickle',
  'malformed',
  'empty',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** An API route named as in the interface, such as `GET /api/v1/jobs/{job_id}`. */
export type FaultRoute = {
  [N in EndpointName]: `${(typeof ENDPOINTS)[N]['method']} ${typeof API_PREFIX}${(typeof ENDPOINTS)[N]['path']}`;
}[EndpointName];

/** Every route of the contract table; `*` in a rule is all of them. */
export const FAULT_ROUTES = Object.values(ENDPOINTS).map(
  (endpoint) => `${endpoint.method} ${API_PREFIX}${endpoint.path}`,
) as [FaultRoute, ...FaultRoute[]];

const LATENCY_MS = z.int().check(z.gte(0), z.lte(60_000));

const FaultRuleSchema = z
  .strictObject({
    route: z._default(z.enum([...FAULT_ROUTES, '*']), '*'),
    kind: z.enum(FAULT_KINDS),
    /** Share of the route's requests that meet this fault, 0 to 1. */
    probability: z.number().check(z.gte(0), z.lte(1)),
    /** `latency`: real milliseconds added before the request is served. */
    latencyMs: z._default(z.int().check(z.gte(0), z.lte(60_000)), 1000),
    /** `latency`: drawn per request from the seeded sequence instead of `latencyMs`. */
    distribution: z.optional(z.enum(['uniform', 'lognormal'])),
    /** `latency` with `distribution: "uniform"`: the range, in milliseconds. */
    minMs: z.optional(LATENCY_MS),
    maxMs: z.optional(LATENCY_MS),
    /** `latency` with `distribution: "lognormal"`: its median (ms) and the sigma of its logarithm. */
    medianMs: z.optional(z.int().check(z.gte(1), z.lte(60_000))),
    sigma: z.optional(z.number().check(z.gte(0), z.lte(10))),
    /** `rate-limit`: the `Retry-After` of the spurious 429, in seconds. */
    retryAfterSeconds: z._default(z.int().check(z.gte(0), z.lte(3600)), 1),
    /** `trickle`: the rate the answer's body is sent at. */
    bytesPerSecond: z.optional(z.int().check(z.gte(1), z.lte(10_000_000))),
  })
  .check(
    z.refine(
      (rule) =>
        rule.distribution !== 'uniform' ||
        (rule.minMs !== undefined && rule.maxMs !== undefined && rule.minMs <= rule.maxMs),
      {
        message: 'a uniform latency needs minMs and maxMs, minMs no larger than maxMs',
        path: ['minMs'],
      },
    ),
    z.refine(
      (rule) =>
        rule.distribution !== 'lognormal' || (rule.medianMs !== undefined && rule.sigma !== undefined),
      {
        message: 'a lognormal latency needs medianMs and sigma',
        path: ['medianMs'],
      },
    ),
    z.refine((rule) => rule.distribution === undefined || rule.kind === 'latency', {
      message: 'only a latency rule takes a distribution',
      path: ['distribution'],
    }),
  );

export const FaultsConfigSchema = z
  .strictObject({
    seed: z._default(z.int().check(z.gte(0), z.lte(0xffffffff)), 1),
    rules: z._default(z.array(FaultRuleSchema).check(z.maxLength(100)), []),
  })
  .check(
    z.refine(
      (faults) =>
        FAULT_ROUTES.every(
          (route) =>
            faults.rules
              .filter((rule) => rule.route === '*' || rule.route === route)
              .reduce((sum, rule) => sum + rule.probability, 0) <=
            1 + 1e-9,
        ),
      {
        message: 'the probabilities of the rules that apply to one route add up to more than 1',
        path: ['rules'],
      },
    ),
  );

export type FaultsConfig = z.input<typeof FaultsConfigSchema>;
export type NormalizedFaults = z.infer<typeof FaultsConfigSchema>;
export type FaultRule = NormalizedFaults['rules'][number];

export type FaultCounts = Record<FaultKind, number>;

export interface Faults {
  /** The fault a request to `route` meets now, if any; counts it. */
  draw(route: FaultRoute): FaultRule | undefined;
  /** A latency rule's delay for this request: its `latencyMs`, or drawn from the seeded sequence. */
  latencyOf(rule: FaultRule): number;
  /** Replaces the rules and restarts the seeded sequence. */
  set(config: NormalizedFaults): void;
  config(): NormalizedFaults;
  counts(): FaultCounts;
}

const zeroCounts = (): FaultCounts => Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as FaultCounts;

const MAX_LATENCY_MS = 60_000;

/** A delay from `rule`'s distribution, with `random` the seeded sequence's next numbers. */
export function drawLatency(rule: FaultRule, random: () => number): number {
  if (rule.distribution === 'uniform') {
    const min = rule.minMs ?? 0;
    const max = rule.maxMs ?? min;
    return Math.min(max, Math.floor(min + random() * (max - min + 1)));
  }
  if (rule.distribution === 'lognormal') {
    // Box-Muller: two uniform draws make one standard normal; 1 - u keeps the logarithm finite.
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const ms = (rule.medianMs ?? 1) * Math.exp((rule.sigma ?? 0) * normal);
    return Math.min(MAX_LATENCY_MS, Math.max(0, Math.round(ms)));
  }
  return rule.latencyMs;
}

export function createFaults(initial: NormalizedFaults): Faults {
  let config = initial;
  let random = seededRandom(config.seed);
  let counts = zeroCounts();
  return {
    draw(route) {
      if (config.rules.length === 0) return undefined;
      // One draw, walked over the matching rules' shares: the faults of a route are
      // exclusive, and their probabilities add up.
      const roll = random();
      let share = 0;
      for (const rule of config.rules) {
        if (rule.route !== '*' && rule.route !== route) continue;
        share += rule.probability;
        if (roll < share) {
          counts[rule.kind]++;
          return rule;
        }
      }
      return undefined;
    },
    latencyOf: (rule) => drawLatency(rule, random),
    set(next) {
      config = next;
      random = seededRandom(next.seed);
      counts = zeroCounts();
    },
    config: () => config,
    counts: () => ({ ...counts }),
  };
}

/** Checks a faults config given at run time (service.setFaults); the error names the field. */
export function parseFaults(input: unknown, where: string): NormalizedFaults {
  const parsed = FaultsConfigSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  throw new ConfigError(`Invalid faults: ${describeIssues(parsed.error.issues, [where])}`);
}
