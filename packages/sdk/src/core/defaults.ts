// The client's defaults, in one place: options.ts fills them in, and the CLI and the mock's
// verify take the poll interval from here (through @profile-articles/sdk/internal). A file of
// its own, so that sharing it shares no types or code with the public entry.
export const defaultOptions = {
  maxRetries: 2,
  timeoutMs: 60_000,
  /** The interface advises polling a job about every 10 s. */
  pollIntervalMs: 10_000,
  /** On a loopback origin (isLoopbackHost): a server on this machine, such as the mock, whose jobs take seconds. */
  loopbackPollIntervalMs: 1_000,
  maxRetryDelayMs: 60_000,
} as const;

/**
 * Whether a URL's hostname, as the URL parser writes it, is this machine: 127.0.0.0/8, [::1] or
 * localhost. The parser writes 127.1 and 0x7f000001 as 127.0.0.1; a name such as
 * 127.0.0.1.evil.example is a name, which DNS may send anywhere.
 */
export const isLoopbackHost = (hostname: string) => /^(localhost|\[::1\]|127(\.\d+){3})$/.test(hostname);
