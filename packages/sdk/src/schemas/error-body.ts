import * as z from 'zod/mini';

/** One entry of a validation error's `detail` array; its properties are open. */
export const ValidationDetailSchema = z.record(z.string(), z.unknown());

/** Every error answer: `{detail}`, a message or an array of validation details. */
export const ErrorBodySchema = z.looseObject({
  detail: z.union([z.string(), z.array(ValidationDetailSchema)]),
});

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
export type ErrorDetail = ErrorBody['detail'];
