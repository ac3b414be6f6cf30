import * as z from 'zod/mini';
import type { SameShape } from './same-shape.js';

/** One citation of an article. */
export interface Source {
  /** The number the article's text cites it by, as in `[1]`. */
  id: number;
  /** The source's title. */
  title: string;
  /** The source's address; null when the interface sent none. */
  url: string | null;
  /** Where it was published; null when the interface sent none. */
  publication: string | null;
  /** A quoted passage; null when the interface sent none. */
  excerpt: string | null;
}

/** Optional fields default to null, as the interface says, so a parsed Source always has them. */
export const SourceSchema = z.looseObject({
  id: z.int(),
  title: z.string(),
  url: z._default(z.nullable(z.string()), null),
  publication: z._default(z.nullable(z.string()), null),
  excerpt: z._default(z.nullable(z.string()), null),
});

const _source: SameShape<Source, z.output<typeof SourceSchema>> = true;
