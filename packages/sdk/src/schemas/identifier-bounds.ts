// The JSON Schema keywords the schemas' own rules cannot show, for the OpenAPI document and the
// mock's `verify`: pass it as `metadata` to `z.toJSONSchema`. The identifiers' length bounds
// (the schemas count code points, not UTF-16 units) and the timestamps' `format: date-time`
// (the schema's pattern, which also takes a local time, is the SDK's tolerant reading, not
// what the document promises). Not on the schemas through `z.globalRegistry`: that kept zod's
// registry in every bundle of the SDK.
import * as z from 'zod/mini';
import { DateTimeSchema } from './article.js';
import { MAX_IDENTIFIER_CHARS } from './identifier-limit.js';
import { IdempotencyKeySchema, ProfileIdSchema } from './profile-request.js';

export const identifierBounds = z.registry<{ minLength?: number; maxLength?: number; format?: string }>();
for (const schema of [ProfileIdSchema, IdempotencyKeySchema]) {
  identifierBounds.add(schema, { minLength: 1, maxLength: MAX_IDENTIFIER_CHARS });
}
identifierBounds.add(DateTimeSchema, { format: 'date-time' });
