// `profile-articles-mock verify`: arguments in, a report out, an exit code back. Only the
// bin calls process.exit; everything here is testable in-process.
import { plainHttpWarning } from '@profile-articles/sdk/internal';
import { terminalSafe } from '@profile-articles/sdk/internal/terminal';
import { parseVerifyArgs, UsageError, VERIFY_USAGE } from './cli-args.js';
import { exitCodeOf, formatJson, formatTable } from './report.js';
import { runVerify, type VerifyDeps } from './runner.js';

interface VerifyIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * Writes verify's own status line as it is (carriage return and erase-line included); set
   * only when stderr is a terminal. It never carries a server's text.
   */
  status?: (text: string) => void;
}

const processIo: VerifyIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  ...(process.stderr.isTTY ? { status: (text: string) => process.stderr.write(text) } : {}),
};

/** Back to the start of the line, and the line erased. */
const CLEAR_LINE = '\r\u001b[K';

/**
 * The one way out to the person's terminal: the report and the lines about it hold the
 * server's text, none of whose control characters may reach it. The table and --json have
 * none left by then (report.ts); this holds for any line written later, too.
 */
const toTerminal = (io: VerifyIo): VerifyIo => ({
  stdout: (text) => io.stdout(terminalSafe(text, 'lines')),
  stderr: (text) => io.stderr(terminalSafe(text, 'lines')),
});

export async function runVerifyCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  terminal: VerifyIo = processIo,
  deps: VerifyDeps = {},
): Promise<number> {
  const io = toTerminal(terminal);
  let parsed: ReturnType<typeof parseVerifyArgs>;
  try {
    parsed = parseVerifyArgs(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(error.showUsage ? `${error.message}\n${VERIFY_USAGE}\n` : `${error.message}\n`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(`${VERIFY_USAGE}\n`);
    return 0;
  }
  const { options, json, keyFrom } = parsed;
  // Every probe carries the key: said before the first one leaves, as the CLI and the SDK say it.
  const warning = plainHttpWarning(options.origin);
  if (warning) io.stderr(`Warning: ${warning}\n`);
  // A paid run waits minutes for a job: on a terminal, one line says which step is under way,
  // written over as the steps go and erased before the report (nothing of it in a pipe or a file).
  const { status } = terminal;
  const steps: VerifyDeps = status
    ? {
        ...deps,
        onStep: (name, index, total) =>
          status(`${CLEAR_LINE}Checking ${name} (step ${index + 1} of ${total})…`),
      }
    : deps;
  let report: Awaited<ReturnType<typeof runVerify>>;
  try {
    report = await runVerify(options, steps);
  } finally {
    status?.(CLEAR_LINE);
  }
  io.stdout(json ? `${formatJson(report)}\n` : `${formatTable(report)}\n`);
  // In the report's words, on stderr too, for a run whose stdout goes to a file or a pipe.
  if (report.unreachable) io.stderr(`Stopped: ${report.unreachable}\n`);
  if (report.key_refused) {
    io.stderr(`${report.origin} refused the API key (401). Check the key given by ${keyFrom}.\n`);
  }
  return exitCodeOf(report);
}
