// The root of every SDK error, in a file of its own so that the error modules can extend it
// without importing each other in a cycle.

export interface ErrorContext {
  /** How many HTTP attempts the call made before it gave up. */
  attempts?: number;
  /** The `Idempotency-Key` a generate or update call used: reuse it to retry safely later. */
  idempotencyKey?: string;
  cause?: unknown;
}

export class ProfileArticlesError extends Error {
  override readonly name: string = 'ProfileArticlesError';
  /** How many HTTP attempts the call made; undefined when none was made. */
  readonly attempts: number | undefined;
  /** The `Idempotency-Key` a generate or update call used: reuse it to retry safely later. */
  readonly idempotencyKey: string | undefined;

  constructor(message: string, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.attempts = context.attempts;
    this.idempotencyKey = context.idempotencyKey;
  }
}
