// The client's defaults, in one place: options.ts fills them in, and the CLI and the mock's
// verify take the poll interval from here (through @profile-articles/sdk/internal). A file of
// its own, so that sharing it shares no types or code with the public entry.
export const defaultOptions = {
  maxRetries: 2,
  timeoutMs: 60_000,
  /** The interface advises polling a job about every 10 s. */
  pollIntervalMs: 10_000,
  maxRetryDelayMs: 60_000,
} as const;
