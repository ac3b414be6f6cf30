// mock: the mock server in the foreground, with the same flags and checks as its own bin,
// and the next steps a newcomer needs (the URL, the demo key, what to run).
import type { MockFlags } from '@profile-articles/mock-server/internal';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { invocation } from '../invocation.js';

function nextSteps(url: string, key: string | undefined, cli: string): string[] {
  return [
    '',
    'Next, in another terminal:',
    `  export PROFILE_ARTICLES_BASE_URL=${url}`,
    key
      ? `  echo ${key} | ${cli} login        # or: export PROFILE_ARTICLES_API_KEY=${key}`
      : `  ${cli} login                  # with a key from your config file`,
    `  ${cli} generate ada-lovelace`,
    `  ${cli} status`,
    '',
    'Stop it with Ctrl-C.',
  ];
}

export async function mockCommand(ctx: Context, options: MockFlags): Promise<void> {
  const { ConfigError, DEFAULT_HOST, DEFAULT_PORT } = await import('@profile-articles/mock-server');
  const { mockOptionsFromFlags, runMockCommand } = await import('@profile-articles/mock-server/internal');
  // The flags and their checks are the mock bin's own (mockOptionsFromFlags).
  const runOptions = (() => {
    try {
      return mockOptionsFromFlags(options);
    } catch (error) {
      throw new CliError((error as Error).message, ExitCode.Usage);
    }
  })();
  const { port } = runOptions;
  const cli = invocation(ctx.io.env);
  let url = '';
  const log = (line: string) => {
    ctx.out.line(line);
    const listening = /listening on (\S+)/.exec(line);
    if (listening) url = listening[1] ?? '';
    const demo = /API key (\S+),/.exec(line);
    if (demo) ctx.out.line(nextSteps(url, demo[1], cli).join('\n'));
    else if (listening && options.config) ctx.out.line(nextSteps(url, undefined, cli).join('\n'));
  };
  try {
    await runMockCommand({ ...runOptions, log });
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, ExitCode.Usage);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new CliError(
        `Port ${port ?? DEFAULT_PORT} is already in use: another mock (or another program) is listening there.`,
        ExitCode.Failure,
        'Pick another with --port, such as --port 4011, or --port 0 for any free port.',
      );
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') {
      throw new CliError(
        `Cannot listen on ${options.host ?? DEFAULT_HOST}:${port ?? DEFAULT_PORT} (${code}).`,
        ExitCode.Failure,
        'Use --host 127.0.0.1, and a port above 1023 unless you run as root.',
      );
    }
    throw error;
  }
}
