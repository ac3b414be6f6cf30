/** The most code points a profile id or an Idempotency-Key may have. */
export const MAX_IDENTIFIER_CHARS = 200;
