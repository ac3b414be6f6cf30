import * as z from 'zod/mini';

/**
 * `z.catch(schema, undefined)`, built directly: zod/mini's `catch` reaches a constant through
 * `core.util`, which keeps all of zod's util module (about 13 KB minified) in a bundle.
 */
function dropIfMalformed<T extends z.ZodMiniType>(innerType: T): z.ZodMiniCatch<T> {
  return new z.ZodMiniCatch({ type: 'catch', innerType, catchValue: () => undefined }) as z.ZodMiniCatch<T>;
}

/**
 * One entry of a validation error's `detail` array. The interface leaves its properties open;
 * `loc` (where), `msg` (what) and `type` (a machine-readable kind) are the ones the service
 * and the mock send. A malformed one of them is dropped rather than failing the whole body.
 */
export const ValidationDetailSchema = z.looseObject({
  loc: dropIfMalformed(z.optional(z.array(z.union([z.string(), z.number()])))),
  msg: dropIfMalformed(z.optional(z.string())),
  type: dropIfMalformed(z.optional(z.string())),
});

export type ValidationDetail = z.infer<typeof ValidationDetailSchema>;

/** Every error answer: `{detail}`, a message or an array of validation details. */
export const ErrorBodySchema = z.looseObject({
  detail: z.union([z.string(), z.array(ValidationDetailSchema)]),
});

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
export type ErrorDetail = ErrorBody['detail'];
