import * as z from 'zod/mini';

/** One citation of an article. Optional fields default to null, as the interface says. */
export const SourceSchema = z.looseObject({
  id: z.int(),
  title: z.string(),
  url: z._default(z.nullable(z.string()), null),
  publication: z._default(z.nullable(z.string()), null),
  excerpt: z._default(z.nullable(z.string()), null),
});

export type Source = z.infer<typeof SourceSchema>;
