import type { Context } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';

/** Runs the mock server in the foreground, with the same flags and checks as its own bin. */
export async function mockCommand(
  ctx: Context,
  options: { port?: string; host?: string; config?: string },
): Promise<void> {
  const { ConfigError, parsePort, runMockCommand } = await import('@profile-articles/mock-server');
  try {
    const port = parsePort(options.port);
    await runMockCommand({
      ...(port === undefined ? {} : { port }),
      ...(options.host ? { host: options.host } : {}),
      ...(options.config ? { configPath: options.config } : {}),
      log: (line) => ctx.out.line(line),
    });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof RangeError) {
      throw new CliError(error.message, ExitCode.Usage);
    }
    throw error;
  }
}
