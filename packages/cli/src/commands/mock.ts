// mock: the mock server in the foreground, with the same flags and checks as its own bin,
// and the next steps a newcomer needs (the URL, the demo key, what to run).
import type { MockFlags } from '@profile-articles/mock-server/internal';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Context } from '../settings/context.js';
import { invocation } from '../shell/invocation.js';
import { shellQuote } from '../shell/shell-quote.js';

/**
 * The steps store the mock's key in a profile of its own, `mock`, and use it by name: a stored
 * key goes only to its own origin, so exporting the mock's URL would send no stored key there,
 * and a plain `login` would replace the default profile's key and origin with the mock's.
 */
function nextSteps(
  url: string,
  key: string | undefined,
  cli: string,
  certPath: string | undefined,
): string[] {
  // Node reads NODE_EXTRA_CA_CERTS only as it starts: set before the CLI runs, in each shell.
  const trust = certPath === undefined ? [] : [`  export NODE_EXTRA_CA_CERTS=${shellQuote(certPath)}`];
  return [
    '',
    'Next, in another terminal:',
    ...trust,
    key
      ? `  echo ${key} | ${cli} login --profile mock --base-url ${url}`
      : `  ${cli} login --profile mock --base-url ${url}   # with a key from your config file`,
    `  ${cli} generate ada-lovelace --profile mock`,
    `  ${cli} status --profile mock`,
    key
      ? `Or, for one shell and no stored key: export PROFILE_ARTICLES_BASE_URL=${url} PROFILE_ARTICLES_API_KEY=${key}`
      : `Or, for one shell and no stored key: export PROFILE_ARTICLES_BASE_URL=${url} PROFILE_ARTICLES_API_KEY=<a key from your config file>`,
    '',
    'Stop it with Ctrl-C.',
  ];
}

export async function mockCommand(ctx: Context, options: MockFlags): Promise<void> {
  const { mockOptionsFromFlags, mockStartFailure, runMockCommand } = await import(
    '@profile-articles/mock-server/internal'
  );
  // The flags and their checks are the mock bin's own (mockOptionsFromFlags).
  const runOptions = (() => {
    try {
      return mockOptionsFromFlags(options);
    } catch (error) {
      throw new CliError((error as Error).message, ExitCode.Usage);
    }
  })();
  const cli = invocation(ctx.io.env);
  let url = '';
  let certPath: string | undefined;
  const log = (line: string) => {
    ctx.out.line(line);
    const listening = /listening on (\S+)/.exec(line);
    if (listening) url = listening[1] ?? '';
    const cert = /^TLS certificate: (.+) \(clients trust it/.exec(line);
    if (cert) certPath = cert[1];
    // After the demo account's line, or the config's accounts line in its place: the same
    // lines in the same order either way.
    const demo = /^Demo account: API key (\S+),/.exec(line);
    if (demo) ctx.out.line(nextSteps(url, demo[1], cli, certPath).join('\n'));
    else if (line.startsWith('Accounts: ')) ctx.out.line(nextSteps(url, undefined, cli, certPath).join('\n'));
  };
  // Request lines (--log, on by default on a terminal) in the CLI's own colours, which its
  // output keeps while it drops every other control character.
  const { style } = ctx.out;
  const paintStatus = (status: number, text: string) =>
    status >= 200 && status < 300
      ? style.green(text)
      : status >= 300 && status < 400
        ? style.cyan(text)
        : status >= 400 && status < 500
          ? style.yellow(text)
          : style.red(text);
  try {
    await runMockCommand({
      ...runOptions,
      log,
      requestLine: (line) => ctx.out.line(line),
      paintStatus,
      stdoutIsTTY: ctx.io.stdout.isTTY === true,
      env: ctx.io.env,
    });
  } catch (error) {
    // The bin's own mapping: the same message and exit code from both.
    const failure = mockStartFailure(error, runOptions);
    if (failure) throw new CliError(failure.message, failure.exitCode, failure.hint);
    throw error;
  }
}
