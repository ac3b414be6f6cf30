// Why a 2xx body was refused: shared by the transport's parse result and ResponseValidationError.

/** One reason a 2xx body does not match the interface: zod's issue, without the input it saw. */
export interface ResponseIssue {
  /** zod's issue code (`invalid_type`, `invalid_value`, …), or `invalid_json` / `too_big` for the body. */
  readonly code: string;
  /** Where in the body, such as `['job', 'status']`. */
  readonly path: readonly PropertyKey[];
  readonly message: string;
}
