// --jq: the one JSON value of a --json run, filtered with jq's own language, as gh's --jq does:
// strings are printed raw, other values as JSON (indented on a terminal, one line each in a pipe).
// jq itself, compiled to WebAssembly, ships inside the jq-web package (docs/decisions/0010 says
// why that one); it loads only here, only when --jq was given, so no other start-up pays for it.
import { safeJson } from '@profile-articles/sdk/internal/terminal';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';

interface JqWeb {
  raw(json: string, filter: string, flags?: string[]): string | undefined;
}

/** jq's exit codes: 3 is a filter that does not compile, 5 one that failed on this input. */
const COMPILE_ERROR = 3;

/** What `filter` prints for `value`: every result on a line of its own; nothing for none. */
export async function runJq(value: unknown, filter: string, terminal: boolean): Promise<string> {
  // @ts-expect-error jq-web ships no types: the one function used is typed above.
  const jq = (await (await import('jq-web')).default) as JqWeb;
  let printed: string | undefined;
  try {
    // Without recursion: a server's value nested beyond the stack overflowed JSON.stringify.
    printed = jq.raw(safeJson(value), filter, terminal ? ['-r'] : ['-r', '-c']);
  } catch (error) {
    const { exitCode, stderr } = error as { exitCode?: number; stderr?: string };
    // jq's own words, without the wrapper's "Non-zero exit code" line or its name for the input.
    const said = (stderr ?? String(error))
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('Non-zero exit code'))
      .join(' ')
      .replaceAll(' (at inputString:0)', '')
      .replace(/\s+/g, ' ')
      .trim();
    throw new CliError(
      `--jq ${exitCode === COMPILE_ERROR ? 'could not compile the filter' : 'failed'}: ${said}`,
      exitCode === COMPILE_ERROR ? ExitCode.Usage : ExitCode.Failure,
      exitCode === COMPILE_ERROR
        ? 'The filter is jq’s language: https://jqlang.org/manual/'
        : // The answer came before the filter ran: what it cost is spent (jq refuses JSON nested past 10,000 levels).
          'The service answered, so a paid call (a read, a generate, an update) was charged; only --jq failed on its answer.',
    );
  }
  return printed ? `${printed}\n` : '';
}
