import * as z from 'zod/mini';
import type { SameShape } from './same-shape.js';

/**
 * `z.catch(schema, undefined)`, built directly: zod/mini's `catch` reaches a constant through
 * `core.util`, which keeps all of zod's util module (about 13 KB minified) in a bundle.
 */
function dropIfMalformed<T extends z.ZodMiniType>(innerType: T): z.ZodMiniCatch<T> {
  return new z.ZodMiniCatch({ type: 'catch', innerType, catchValue: () => undefined }) as z.ZodMiniCatch<T>;
}

/**
 * One entry of a validation error's `detail` array. The interface leaves its properties open:
 * these three are the ones the service and the mock send, and any other property is kept as
 * sent. A malformed one of the three is dropped rather than failing the whole answer.
 */
export interface ValidationIssue {
  /** Where the problem is, e.g. `["body", "profile_id"]` or `["path", "job_id"]`. */
  loc?: Array<string | number> | undefined;
  /** What is wrong, for a person. */
  msg?: string | undefined;
  /** A machine-readable kind, e.g. `string_too_long` or `missing`. */
  type?: string | undefined;
  /** The interface leaves an entry's properties open. */
  [property: string]: unknown;
}

/** The schema of one {@link ValidationIssue}. */
export const ValidationDetailSchema = z.looseObject({
  loc: dropIfMalformed(z.optional(z.array(z.union([z.string(), z.number()])))),
  msg: dropIfMalformed(z.optional(z.string())),
  type: dropIfMalformed(z.optional(z.string())),
});

/** Every error answer: `{detail}`. */
export interface ErrorBody {
  /** A message for a person, or (from a 422) one entry per invalid input. */
  detail: ErrorDetail;
}

/** An error answer's `detail`: a message, or (from a 422) one entry per invalid input. */
export type ErrorDetail = string | ValidationIssue[];

export const ErrorBodySchema = z.looseObject({
  detail: z.union([z.string(), z.array(ValidationDetailSchema)]),
});

// The open entry keeps its index signature on purpose, so it is compared as zod types it.
const _issue: z.output<typeof ValidationDetailSchema> extends ValidationIssue ? true : false = true;
const _issueBack: ValidationIssue extends z.output<typeof ValidationDetailSchema> ? true : false = true;
const _body: SameShape<ErrorBody, z.output<typeof ErrorBodySchema>> = true;
