// Why the mock could not start, as a person should read it, and the exit code: one mapping
// for the mock's bin and `profile-articles mock`, so both say the same and exit the same.

import { DEFAULT_HOST, DEFAULT_PORT } from '../flags.js';
import { ConfigError } from '../rules/config-error.js';

export interface StartFailure {
  message: string;
  /** What to do about it, on the line after the message. */
  hint?: string;
  /** 1: the flags were well formed, but the config or the address cannot be used. */
  exitCode: 1;
}

/** The failure `error` stands for, or undefined for one that is not the user's to fix. */
export function mockStartFailure(
  error: unknown,
  where: { port?: number | undefined; host?: string | undefined },
): StartFailure | undefined {
  if (error instanceof ConfigError) return { message: error.message, exitCode: 1 };
  const port = where.port ?? DEFAULT_PORT;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return {
      message: `Port ${port} is already in use: another mock (or another program) is listening there.`,
      hint: `Pick another with --port, such as --port ${DEFAULT_PORT + 1}, or --port 0 for any free port.`,
      exitCode: 1,
    };
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') {
    return {
      message: `Cannot listen on ${where.host ?? DEFAULT_HOST}:${port} (${code}).`,
      hint: `Use --host ${DEFAULT_HOST}, and a port above 1023 unless you run as root.`,
      exitCode: 1,
    };
  }
  return undefined;
}
