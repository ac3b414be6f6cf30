// The CLI's exit codes: documented in docs/cli.md, relied on by scripts.
export const ExitCode = {
  Success: 0,
  Failure: 1,
  Usage: 2,
  JobFailed: 3,
  Authentication: 4,
  InsufficientCredits: 5,
  Interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
