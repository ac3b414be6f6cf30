// The identifiers' length bounds as JSON Schema keywords, for the OpenAPI document and the
// mock's `verify`: pass it as `metadata` to `z.toJSONSchema`. The schemas check the bounds with
// their own rules (code points, not UTF-16 units), which JSON Schema cannot show. Not on the
// schemas through `z.globalRegistry`: that kept zod's registry in every bundle of the SDK.
import * as z from 'zod/mini';
import { MAX_IDENTIFIER_CHARS } from './identifier-limit.js';
import { IdempotencyKeySchema, ProfileIdSchema } from './profile-request.js';

export const identifierBounds = z.registry<{ minLength: number; maxLength: number }>();
for (const schema of [ProfileIdSchema, IdempotencyKeySchema]) {
  identifierBounds.add(schema, { minLength: 1, maxLength: MAX_IDENTIFIER_CHARS });
}
