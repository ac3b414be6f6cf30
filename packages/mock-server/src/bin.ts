#!/usr/bin/env node
// profile-articles-mock [--port PORT] [--host HOST] [--config FILE] [--allow-host NAME]… [--admin-token-file FILE | --admin-token TOKEN]
//                       [--tls [--tls-cert-out FILE] | --tls-cert FILE --tls-key FILE]
// profile-articles-mock verify ...   (checks a deployment against the contract; see docs/verify.md)
import { terminalSafe } from '@profile-articles/sdk/internal/terminal';
import { mockStartFailure } from './console/start-failure.js';
import {
  flagSpelling,
  MOCK_FLAGS,
  type MockFlags,
  MockUsageError,
  mockOptionsFromFlags,
  parseMockArgs,
} from './flags.js';
import { type RunMockOptions, runMockCommand } from './run.js';

// Listed from the same declaration `profile-articles mock --help` is built from.
const flagLines = MOCK_FLAGS.map((flag) => [
  `${flag.short ? '' : '    '}${flagSpelling(flag)}`,
  flag.description,
]);
const helpLines = [...flagLines, ['-h, --help', 'display help']];
// Wide enough for the longest flag and two spaces, so no description touches its flag.
const flagWidth = Math.max(...helpLines.map(([flag]) => flag?.length ?? 0)) + 2;
const USAGE = [
  'Usage: profile-articles-mock [options]',
  '       profile-articles-mock verify [options]   (checks a deployment against the contract; verify --help)',
  '',
  'Options:',
  ...helpLines.map(([flag, text]) => `  ${flag?.padEnd(flagWidth)}${text}`),
].join('\n');

/**
 * What the bin says quotes a flag, a config file or an error, which may come from anywhere (a
 * download, a script): each line stays one line, and none of their control characters reaches
 * the terminal.
 */
const say = (stream: NodeJS.WriteStream, ...lines: string[]) =>
  stream.write(lines.map((line) => `${terminalSafe(line)}\n`).join(''));

async function main(): Promise<number> {
  // Loaded only when asked for, so starting the mock does not pay for it.
  if (process.argv[2] === 'verify') {
    const { runVerifyCommand } = await import('./verify/command.js');
    return runVerifyCommand(process.argv.slice(3));
  }
  let flags: MockFlags;
  let help: boolean | undefined;
  try {
    ({ flags, help } = parseMockArgs(process.argv.slice(2)));
  } catch (error) {
    if (!(error instanceof MockUsageError)) throw error;
    // As `profile-articles mock` says it: the message, then where the usage is.
    say(process.stderr, error.message, 'Run `profile-articles-mock --help` for usage.');
    return 2;
  }
  if (help) {
    say(process.stdout, ...USAGE.split('\n'));
    return 0;
  }
  let options: RunMockOptions;
  try {
    options = mockOptionsFromFlags(flags);
  } catch (error) {
    say(process.stderr, (error as Error).message);
    return 2;
  }
  try {
    await runMockCommand(options);
    return 0;
  } catch (error) {
    const failure = mockStartFailure(error, options);
    if (!failure) {
      say(process.stderr, `Could not start the mock: ${(error as Error).message}`);
      return 1;
    }
    say(process.stderr, failure.message, ...(failure.hint ? [failure.hint] : []));
    return failure.exitCode;
  }
}

main().then((code) => process.exit(code));
