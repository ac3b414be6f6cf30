import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  ArticleSchema,
  BalanceResponseSchema,
  CheckoutRequestSchema,
  CheckoutSessionResponseSchema,
  DateTimeSchema,
  ErrorBodySchema,
  isActiveStatus,
  isTerminalStatus,
  JOB_STATUSES,
  JobSchema,
  PricingSchema,
  ProfileRequestSchema,
  ReadResponseSchema,
  SourceSchema,
  TERMINAL_JOB_STATUSES,
} from './index.js';

const article = {
  article_id: 'art_1',
  title: 'Ada Lovelace',
  content: 'Ada wrote the first program[1].',
  sources: [{ id: 1, title: 'Notes', url: 'https://example.org', publication: 'Journal', excerpt: null }],
  infobox: { born: '1815' },
  current_version: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-02T00:00:00.123+00:00',
};
const job = {
  job_id: '2d4741ec-4125-418c-b9fe-6b75d4becb87',
  profile_id: 'ada-lovelace',
  status: 'queued',
  credits_charged: 100,
};

describe('response schemas accept the seed’s shapes', () => {
  it('Source fills optional fields with null', () => {
    expect(SourceSchema.parse({ id: 1, title: 'T' })).toEqual({
      id: 1,
      title: 'T',
      url: null,
      publication: null,
      excerpt: null,
    });
  });

  it('Article accepts a null infobox and keeps unknown fields', () => {
    const parsed = ArticleSchema.parse({ ...article, infobox: null, future_field: 'x' });
    expect(parsed.infobox).toBeNull();
    expect(parsed.future_field).toBe('x');
  });

  it('Job defaults article and error to null', () => {
    expect(JobSchema.parse(job)).toEqual({ ...job, article: null, error: null });
    expect(JobSchema.parse({ ...job, status: 'succeeded', article }).article?.title).toBe('Ada Lovelace');
  });

  it('ReadResponse and CheckoutSessionResponse', () => {
    expect(ReadResponseSchema.parse({ article, credits_charged: 1 }).credits_charged).toBe(1);
    expect(CheckoutSessionResponseSchema.parse({ session_id: 's', url: 'https://pay' }).url).toBe(
      'https://pay',
    );
  });

  it('Pricing fills every default but credit_price_cents', () => {
    expect(PricingSchema.parse({})).toEqual({
      read_credits: 1,
      generation_credits: 100,
      queued_timeout_minutes: 30,
      requests_per_minute: 120,
      min_purchase_credits: 10,
      max_purchase_credits: 100000,
    });
    expect(
      BalanceResponseSchema.parse({ credits: 5, pricing: { credit_price_cents: 3 } }).pricing
        .credit_price_cents,
    ).toBe(3);
  });

  it('a malformed validation entry field is dropped, not the whole body', () => {
    const parsed = ErrorBodySchema.parse({ detail: [{ loc: 5, msg: ['x'], type: 'missing', extra: 1 }] });
    expect(parsed.detail).toEqual([{ loc: undefined, msg: undefined, type: 'missing', extra: 1 }]);
  });

  it('error bodies: a string or an array of objects', () => {
    expect(ErrorBodySchema.parse({ detail: 'nope' }).detail).toBe('nope');
    expect(ErrorBodySchema.parse({ detail: [{ loc: ['body'], msg: 'bad', type: 'x' }] }).detail).toHaveLength(
      1,
    );
  });
});

describe('timestamps', () => {
  it('DateTimeSchema has the pattern of zod’s ISO date-time with offset and local time', () => {
    const zods = z.iso.datetime({ offset: true, local: true });
    const ours = DateTimeSchema.def.checks?.[0]?._zod.def as { pattern?: RegExp } | undefined;
    expect(String(ours?.pattern)).toBe(String(zods._zod.def.pattern));
    for (const value of ['2026-01-01T00:00:00Z', '2026-01-01T00:00', '2024-02-29T10:00:00.5+01:00', 'x']) {
      expect(DateTimeSchema.safeParse(value).success, value).toBe(zods.safeParse(value).success);
    }
  });
});

describe('response schemas reject bad shapes', () => {
  it.each([
    ['unknown status', JobSchema, { ...job, status: 'paused' }],
    ['non-uuid job id', JobSchema, { ...job, job_id: '42' }],
    ['float credits', JobSchema, { ...job, credits_charged: 1.5 }],
    ['string version', ArticleSchema, { ...article, current_version: '1' }],
    ['bad date', ArticleSchema, { ...article, created_at: 'yesterday' }],
    ['missing sources', ArticleSchema, { ...article, sources: undefined }],
    ['infobox an array', ArticleSchema, { ...article, infobox: ['born 1815'] }],
    ['infobox a string', ArticleSchema, { ...article, infobox: 'born 1815' }],
    ['source without title', SourceSchema, { id: 1 }],
    ['zero pricing', PricingSchema, { read_credits: 0 }],
    ['negative pricing', PricingSchema, { requests_per_minute: -1 }],
    ['detail a number', ErrorBodySchema, { detail: 42 }],
    ['detail an array of strings', ErrorBodySchema, { detail: ['x'] }],
  ])('%s', (_name, schema, value) => {
    expect((schema as typeof JobSchema).safeParse(value).success).toBe(false);
  });
});

describe('request schemas are strict', () => {
  it('ProfileRequest takes 1 to 200 characters and nothing else', () => {
    expect(ProfileRequestSchema.safeParse({ profile_id: 'a' }).success).toBe(true);
    expect(ProfileRequestSchema.safeParse({ profile_id: 'a'.repeat(200) }).success).toBe(true);
    for (const bad of [
      {},
      { profile_id: '' },
      { profile_id: 'a'.repeat(201) },
      { profile_id: 'a', extra: true },
      { profile_id: 7 },
      null,
      'ada',
    ]) {
      expect(ProfileRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('CheckoutRequest takes a positive integer, other fields ignored', () => {
    expect(CheckoutRequestSchema.safeParse({ credits: 10 }).success).toBe(true);
    expect(CheckoutRequestSchema.safeParse({ credits: 10, x: 1 }).data).toEqual({ credits: 10 });
    for (const bad of [{}, { credits: 0 }, { credits: -1 }, { credits: 2.5 }, { credits: '10' }]) {
      expect(CheckoutRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('job status helpers', () => {
  it('tell terminal from active for every status', () => {
    const terminal = JOB_STATUSES.filter(isTerminalStatus);
    expect(terminal).toEqual(['succeeded', 'failed', 'cancelled']);
    expect(TERMINAL_JOB_STATUSES).toEqual(terminal);
    expect(JOB_STATUSES.filter(isActiveStatus)).toEqual(['queued', 'running']);
  });
});

describe('credits_charged is never negative (a negative charge is a ResponseValidationError)', () => {
  it.each([
    ['a job', JobSchema, job],
    ['a read', ReadResponseSchema, { article, credits_charged: 1 }],
  ])('%s claiming -1 is refused, 0 is taken', (_name, schema, value) => {
    expect((schema as typeof JobSchema).safeParse({ ...value, credits_charged: -1 }).success).toBe(false);
    expect((schema as typeof JobSchema).safeParse({ ...value, credits_charged: 0 }).success).toBe(true);
  });
});
