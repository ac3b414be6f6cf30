import type { Context } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';

export async function mockCommand(
  ctx: Context,
  options: { port?: string; host?: string; config?: string },
): Promise<void> {
  const port = options.port === undefined ? undefined : Number(options.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new CliError(
      `--port must be a whole number from 0 to 65535, got "${options.port}"`,
      ExitCode.Usage,
    );
  }
  const { ConfigError, runMockCommand } = await import('@profile-articles/mock-server');
  try {
    await runMockCommand({
      ...(port === undefined ? {} : { port }),
      ...(options.host ? { host: options.host } : {}),
      ...(options.config ? { configPath: options.config } : {}),
      log: (line) => ctx.out.line(line),
    });
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, ExitCode.Usage);
    throw error;
  }
}
