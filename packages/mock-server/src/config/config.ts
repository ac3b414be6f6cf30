// The mock's configuration: what a user writes, how it is checked, and the filled-in shape.
import { MIN_API_KEY_LENGTH } from '@profile-articles/sdk/internal';
import { PricingSchema, ProfileIdSchema, SourceSchema } from '@profile-articles/sdk/schemas';
import * as z from 'zod/mini';
import { ConfigError, describeIssues } from '../rules/config-error.js';
import type { NormalizedAccount } from '../rules/money/accounts.js';
import { FaultsConfigSchema, type NormalizedFaults } from '../rules/request/faults.js';
import type { SeededText } from '../rules/work/articles.js';
import { useEnglishMessages } from '../rules/zod-english.js';
import { whereJsonBreaks } from './json-where.js';

useEnglishMessages();

export const PAYMENT_MODES = ['enabled', 'disabled', 'unavailable'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

const nonNegativeInt = () => z.int().check(z.nonnegative());

const AccountConfigSchema = z.strictObject({
  id: z.string().check(z.minLength(1)),
  // As the SDK takes them: a shorter key is an ordinary word, which redacting would rewrite.
  apiKeys: z
    .array(
      z
        .string()
        .check(z.minLength(MIN_API_KEY_LENGTH, `an API key has at least ${MIN_API_KEY_LENGTH} characters`)),
    )
    .check(z.minLength(1)),
  credits: z._default(nonNegativeInt(), 0),
  pricing: z.optional(z.partial(PricingSchema)),
});

/**
 * A seeded article: config `articles`, `POST /_mock/articles`, `service.seedArticle`. The fields
 * left out are generated as a job would write them; given ones are kept as given.
 */
export const SeedArticleSchema = z.strictObject({
  profileId: ProfileIdSchema,
  title: z.optional(z.string()),
  content: z.optional(z.string()),
  sources: z.optional(z.array(SourceSchema)),
  infobox: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});

export type SeedArticle = z.input<typeof SeedArticleSchema>;
/** A checked seed, of the same shape (normalising is idempotent). */
export type NormalizedSeedArticle = z.output<typeof SeedArticleSchema>;

/** The seed's text: only the fields given (undefined ones dropped, so a render keeps its own). */
export function seededText(seed: NormalizedSeedArticle): SeededText {
  const { profileId: _, ...text } = seed;
  return Object.fromEntries(Object.entries(text).filter(([, value]) => value !== undefined));
}

export const MockConfigSchema = z.strictObject({
  accounts: z._default(z.array(AccountConfigSchema), []),
  jobs: z.optional(
    z.strictObject({
      /** How long a job stays `queued`. */
      queuedMs: z.optional(nonNegativeInt()),
      /** How long it then stays `running`. */
      runningMs: z.optional(nonNegativeInt()),
    }),
  ),
  payments: z._default(z.enum(PAYMENT_MODES), 'enabled'),
  /** Seeded fault injection on /api/v1; none by default. */
  faults: z.optional(FaultsConfigSchema),
  /** Host names served besides the listening address and loopback names (for containers). */
  allowHosts: z._default(z.array(z.string().check(z.minLength(1))), []),
  /** When set, `/_mock/*` requires `Authorization: Bearer <adminToken>`. */
  adminToken: z.optional(z.string().check(z.minLength(1))),
  /** `bodies`: the journal keeps each request's and answer's body (redacted, cut at 64 KiB). */
  journal: z.optional(z.strictObject({ bodies: z._default(z.boolean(), false) })),
  /** The folder the state is kept in across restarts (`--data`); in memory when unset. */
  dataDir: z.optional(z.string().check(z.minLength(1))),
  /** Articles there at start and after a reset, at no charge (with --data: in a fresh folder). */
  articles: z._default(z.array(SeedArticleSchema), []),
});

export type MockConfig = z.input<typeof MockConfigSchema>;
export type AccountConfig = z.input<typeof AccountConfigSchema>;

export interface NormalizedConfig {
  accounts: NormalizedAccount[];
  jobs: { queuedMs: number; runningMs: number };
  payments: PaymentMode;
  faults: NormalizedFaults;
  allowHosts: string[];
  adminToken: string | undefined;
  journal: { bodies: boolean };
  dataDir: string | undefined;
  articles: NormalizedSeedArticle[];
}

/** Without a config: one demo account, as the docs promise. */
export const DEMO_ACCOUNT: AccountConfig = { id: 'demo', apiKeys: ['demo-key'], credits: 1000 };
export const DEFAULT_JOB_TIMES = { queuedMs: 1000, runningMs: 3000 } as const;
export const DEFAULT_CREDIT_PRICE_CENTS = 5;

export { ConfigError };

/** Checks a config and fills every default. Throws ConfigError naming the field at fault. */
export function normalizeConfig(input: unknown = {}): NormalizedConfig {
  const parsed = MockConfigSchema.safeParse(input ?? {});
  if (!parsed.success) throw new ConfigError(`Invalid mock config: ${describeIssues(parsed.error.issues)}`);
  const config = parsed.data;
  const accounts = config.accounts.length ? config.accounts : [DEMO_ACCOUNT];
  const seenKeys = new Set<string>();
  const seenIds = new Set<string>();
  const normalized = accounts.map((account, index): NormalizedAccount => {
    if (seenIds.has(account.id))
      throw new ConfigError(`Invalid mock config: accounts.${index}.id: "${account.id}" is used twice`);
    seenIds.add(account.id);
    for (const key of account.apiKeys) {
      if (seenKeys.has(key))
        throw new ConfigError(
          `Invalid mock config: accounts.${index}.apiKeys: a key belongs to two accounts`,
        );
      seenKeys.add(key);
    }
    const pricing = PricingSchema.parse({
      credit_price_cents: DEFAULT_CREDIT_PRICE_CENTS,
      ...account.pricing,
    });
    if (pricing.min_purchase_credits > pricing.max_purchase_credits) {
      throw new ConfigError(
        `Invalid mock config: accounts.${index}.pricing.min_purchase_credits: above max_purchase_credits`,
      );
    }
    return {
      id: account.id,
      apiKeys: [...account.apiKeys],
      credits: account.credits ?? 0,
      pricing: { ...pricing, credit_price_cents: pricing.credit_price_cents ?? DEFAULT_CREDIT_PRICE_CENTS },
    };
  });
  const seenProfiles = new Set<string>();
  const articles = config.articles.map((seed, index): NormalizedSeedArticle => {
    if (seenProfiles.has(seed.profileId))
      throw new ConfigError(
        `Invalid mock config: articles.${index}.profileId: "${seed.profileId}" is seeded twice`,
      );
    seenProfiles.add(seed.profileId);
    return seed;
  });
  return {
    accounts: normalized,
    jobs: {
      queuedMs: config.jobs?.queuedMs ?? DEFAULT_JOB_TIMES.queuedMs,
      runningMs: config.jobs?.runningMs ?? DEFAULT_JOB_TIMES.runningMs,
    },
    payments: config.payments,
    faults: config.faults ?? FaultsConfigSchema.parse({}),
    allowHosts: [...config.allowHosts],
    adminToken: config.adminToken,
    journal: { bodies: config.journal?.bodies ?? false },
    dataDir: config.dataDir,
    articles,
  };
}

/** Parses a config file's text; JSON errors are ConfigErrors too. */
export function parseConfigText(text: string): NormalizedConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Never JSON.parse's message: it quotes the text, and a config holds API keys.
    throw new ConfigError(`Invalid mock config: not JSON${whereJsonBreaks(text)}`);
  }
  return normalizeConfig(json);
}
