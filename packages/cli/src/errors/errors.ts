// The CLI's own errors. Thrown anywhere; only main.ts turns them into output and an exit code.
import { ExitCode, type ExitCodeValue } from './exit-codes.js';

/** A failure the CLI explains itself: its message and hint are what the user reads. */
export class CliError extends Error {
  override name = 'CliError';
  readonly exitCode: ExitCodeValue;
  readonly hint: string | undefined;

  constructor(message: string, exitCode: ExitCodeValue = ExitCode.Failure, hint?: string) {
    super(message);
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/** The person pressed Ctrl-C where nothing is left to say (a prompt): exit 130 quietly. */
/** Ctrl-C while waiting, which the person chose: told plainly (no "Error:"), exit 130. */
export class Interrupted extends CliError {
  override name = 'Interrupted';

  constructor(message: string, hint?: string) {
    super(message, ExitCode.Interrupted, hint);
  }
}

export class QuietInterrupt extends CliError {
  override name = 'Interrupted';

  constructor() {
    super('', ExitCode.Interrupted);
  }
}

/**
 * A generate or update whose answer was lost (5xx, timeout, connection): the server may have
 * started the job. `retryCommand` re-runs it with the same Idempotency-Key, which cannot pay twice.
 */
export class OutcomeUnknownError extends Error {
  override name = 'OutcomeUnknownError';
  readonly retryCommand: string;

  constructor(cause: Error, retryCommand: string) {
    super(cause.message, { cause });
    this.retryCommand = retryCommand;
  }
}
