import * as z from 'zod/mini';
import { SourceSchema } from './source.js';

/** Timestamps are ISO 8601; an offset or `Z` is accepted, and so is a local time. */
export const DateTimeSchema = z.iso.datetime({ offset: true, local: true });

export const ArticleSchema = z.looseObject({
  article_id: z.string(),
  title: z.string(),
  /** Article text with its original formatting and citation references such as `[1]`. */
  content: z.string(),
  sources: z.array(SourceSchema),
  /** Profile metadata; its keys vary by article. */
  infobox: z.nullable(z.record(z.string(), z.unknown())),
  current_version: z.int(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});

export type Article = z.infer<typeof ArticleSchema>;

/** What `readArticle` answers, and `generateArticle` when the article exists. */
export const ReadResponseSchema = z.looseObject({
  article: ArticleSchema,
  credits_charged: z.int(),
});

export type ReadResponse = z.infer<typeof ReadResponseSchema>;
