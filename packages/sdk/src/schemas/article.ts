import * as z from 'zod/mini';
import { _isoDateTime } from 'zod/v4/core';
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

/**
 * Timestamps are ISO 8601; an offset or `Z` is accepted, and so is a local time. This is
 * `z.iso.datetime(...)` without going through the `z.iso` namespace, which a bundler keeps
 * whole (every ISO format's regexes).
 */
export const DateTimeSchema = _isoDateTime(z.ZodMiniISODateTime, { offset: true, local: true });

export const ArticleSchema = z.looseObject({
  article_id: z.string(),
  title: z.string(),
  content: z.string(),
  sources: z.array(SourceSchema),
  infobox: z.nullable(z.record(z.string(), z.unknown())),
  current_version: z.int(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});

export const ReadResponseSchema = z.looseObject({
  article: ArticleSchema,
  credits_charged: z.int(),
});

const _article: SameShape<Article, z.output<typeof ArticleSchema>> = true;
const _read: SameShape<ReadResponse, z.output<typeof ReadResponseSchema>> = true;
