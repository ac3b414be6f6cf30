import * as z from 'zod/mini';

/** The profile slug: the last path segment of the profile's address. */
export const ProfileIdSchema = z.string().check(z.minLength(1), z.maxLength(200));

/** Body of `POST /articles`. No other properties are allowed. */
export const ProfileRequestSchema = z.strictObject({
  profile_id: ProfileIdSchema,
});

export type ProfileRequest = z.infer<typeof ProfileRequestSchema>;

/** The `Idempotency-Key` header of generate and update. */
export const IdempotencyKeySchema = z.string().check(z.minLength(1), z.maxLength(200));
