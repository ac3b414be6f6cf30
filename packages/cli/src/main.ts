// Runs the CLI and turns every outcome into an exit code. Nothing else decides exit codes.
import { CommanderError } from 'commander';
import { ExitCode } from './errors/exit-codes.js';
import { buildProgram } from './program.js';
import type { Context } from './settings/context.js';
import { type Io, processIo } from './terminal/io.js';
import { terminalIo } from './terminal/terminal-io.js';

/**
 * Runs the CLI in this process, as the `profile-articles` bin does, and resolves to its exit
 * code; it never calls `process.exit`.
 *
 * @param argv - In `process.argv`'s form: the first two entries (the runtime and the script)
 *   are skipped, so pass `['node', 'profile-articles', ...args]`, or `process.argv` itself.
 * @param io - The streams and the environment it uses; the process's own by default.
 *
 * @example
 * ```ts
 * import { run } from '@profile-articles/cli';
 *
 * let out = '';
 * const io = { stdout: { write: (s: string) => (out += s) }, stderr: process.stderr, stdin: process.stdin, env: process.env };
 * const code = await run(['node', 'profile-articles', 'credits', '--json'], io);
 * ```
 */
export function run(argv: string[], io: Io = processIo()): Promise<number> {
  // Every write of every command passes the one boundary that keeps a server's control
  // characters away from the terminal (terminal-io.ts).
  return runOn(argv, terminalIo(io));
}

/** The stored profiles for completion, each with its origin; none when the file cannot be read. */
async function storedProfiles(io: Io): Promise<Array<{ word: string; about: string }>> {
  try {
    const { openConfigStore } = await import('./settings/config-store.js');
    const store = openConfigStore(io.env);
    if (store.problem !== undefined) return [];
    return store.profileNames().map((name) => {
      const stored = store.get(name, 'baseUrl');
      // The origin only: a URL's user and password part is never shown.
      const origin = stored && URL.canParse(stored) ? new URL(stored).origin : 'no origin';
      const kept =
        store.get(name, 'apiKeyIn') === 'keyring'
          ? ', key in keyring'
          : store.get(name, 'apiKey') !== undefined
            ? ', key in file'
            : '';
      return {
        word: name,
        about: `profile: ${origin}${kept}${name === store.chosenProfile ? ' (config use)' : ''}`,
      };
    });
  } catch {
    return [];
  }
}

async function runOn(argv: string[], io: Io): Promise<number> {
  let ctx: Context | undefined;
  const program = buildProgram(io, (created) => {
    ctx = created;
  });
  if (argv[2] === '__complete' || argv[2] === '__complete-described') {
    // Asked by the completion scripts on every <TAB>: answer from the command tree, parse
    // nothing; zsh and fish show each word's description after a tab.
    const { complete } = await import('./shell/complete.js');
    const offered = await complete(program, argv.slice(3), () => storedProfiles(io));
    const described = argv[2] === '__complete-described';
    const lines = offered.map(({ word, about }) => (described && about ? `${word}\t${about}` : word));
    io.stdout.write(lines.length ? `${lines.join('\n')}\n` : '');
    return ExitCode.Success;
  }
  try {
    await program.parseAsync(argv);
    await ctx?.out.settled();
    ctx?.finish();
    return ExitCode.Success;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every other parse problem is a usage error, already printed.
      return error.exitCode === 0 ? ExitCode.Success : ExitCode.Usage;
    }
    // report-error.js loads the SDK only for SDK errors; a CliError is reported without it.
    // A command that printed its value before failing (status): the value still shows.
    await ctx?.out.settled().catch(() => {});
    ctx?.finish();
    const { reportError } = await import('./terminal/report-error.js');
    const { exitCode, ...report } = await reportError(error, ctx?.reportContext() ?? {});
    const jq = argv.some((arg) => arg === '--jq' || arg.startsWith('--jq='));
    const out =
      ctx?.out ??
      new (await import('./terminal/output.js')).Output(
        io,
        argv.includes('--json') || jq,
        jq ? '' : undefined,
        undefined,
        argv.includes('--json'),
      );
    out.error(report);
    if (io.env.DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return exitCode;
  }
}
