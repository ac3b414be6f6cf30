import * as z from 'zod/mini';
import type { SameShape } from './same-shape.js';
import { type Source, SourceSchema } from './source.js';

/** The article of one profile. */
export interface Article {
  /** The article's id; the interface does not fix its format. */
  article_id: string;
  /** The article's title. */
  title: string;
  /** Article text with its original formatting and citation references such as `[1]`. */
  content: string;
  /** The citations. */
  sources: Source[];
  /** Profile metadata; its keys vary by article. May be null. */
  infobox: Record<string, unknown> | null;
  /** Goes up with every update; a job's snapshot keeps the version it was made at. */
  current_version: number;
  /** ISO 8601 date-time. */
  created_at: string;
  /** ISO 8601 date-time. */
  updated_at: string;
}

/** What `readArticle` answers, and `generateArticle` when the article exists. */
export interface ReadResponse {
  /** The current article of the profile. */
  article: Article;
  /** Credits charged for this read. */
  credits_charged: number;
}

// The pattern `z.iso.datetime({ offset: true, local: true })` builds (a test holds them equal),
// written out: zod's ISO schema brings its pattern builder and format class into every bundle.
const ISO_DATE_TIME =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d))|(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?)$/;
/** Timestamps are ISO 8601; an offset or `Z` is accepted, and so is a local time. */
export const DateTimeSchema = z.string().check(z.regex(ISO_DATE_TIME));

export const ArticleSchema = z.looseObject({
  article_id: z.string(),
  title: z.string(),
  content: z.string(),
  sources: z.array(SourceSchema),
  // Any JSON object: a loose object without known fields is zod's record of string keys, for
  // less code (the OpenAPI document writes it as that record).
  infobox: z.nullable(z.looseObject({})),
  current_version: z.int(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});

export const ReadResponseSchema = z.looseObject({
  article: ArticleSchema,
  // A charge is never negative (the interface: credits reserved or charged, 0 after a refund):
  // a server that claims one would let a client that budgets from it spend without limit.
  credits_charged: z.int().check(z.nonnegative()),
});

const _article: SameShape<Article, z.output<typeof ArticleSchema>> = true;
const _read: SameShape<ReadResponse, z.output<typeof ReadResponseSchema>> = true;
