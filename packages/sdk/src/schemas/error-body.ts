import * as z from 'zod/mini';

/**
 * One entry of a validation error's `detail` array. The interface leaves its properties open;
 * `loc` (where), `msg` (what) and `type` (a machine-readable kind) are the ones the service
 * and the mock send. A malformed one of them is dropped rather than failing the whole body.
 */
export const ValidationDetailSchema = z.looseObject({
  loc: z.catch(z.optional(z.array(z.union([z.string(), z.number()]))), undefined),
  msg: z.catch(z.optional(z.string()), undefined),
  type: z.catch(z.optional(z.string()), undefined),
});

export type ValidationDetail = z.infer<typeof ValidationDetailSchema>;

/** Every error answer: `{detail}`, a message or an array of validation details. */
export const ErrorBodySchema = z.looseObject({
  detail: z.union([z.string(), z.array(ValidationDetailSchema)]),
});

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
export type ErrorDetail = ErrorBody['detail'];
