#!/usr/bin/env node
// profile-articles-mock [--port PORT] [--host HOST] [--config FILE] [--allow-host NAME]… [--admin-token TOKEN]
// profile-articles-mock verify ...   (checks a deployment against the contract; see docs/verify.md)
import {
  flagSpelling,
  MOCK_FLAGS,
  type MockFlags,
  MockUsageError,
  mockOptionsFromFlags,
  parseMockArgs,
} from './flags.js';
import { type RunMockOptions, runMockCommand } from './run.js';
import { mockStartFailure } from './start-failure.js';

// Listed from the same declaration `profile-articles mock --help` is built from.
const flagLines = MOCK_FLAGS.map((flag) => [
  `${flag.short ? '' : '    '}${flagSpelling(flag)}`,
  flag.description,
]);
const USAGE = [
  'Usage: profile-articles-mock [options]',
  '       profile-articles-mock verify [options]   (checks a deployment against the contract; verify --help)',
  '',
  'Options:',
  ...[...flagLines, ['-h, --help', 'display help']].map(([flag, text]) => `  ${flag?.padEnd(28)}${text}`),
].join('\n');

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
    process.stderr.write(`${error.message}\nRun \`profile-articles-mock --help\` for usage.\n`);
    return 2;
  }
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let options: RunMockOptions;
  try {
    options = mockOptionsFromFlags(flags);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  try {
    await runMockCommand(options);
    return 0;
  } catch (error) {
    const failure = mockStartFailure(error, options);
    if (!failure) {
      process.stderr.write(`Could not start the mock: ${(error as Error).message}\n`);
      return 1;
    }
    process.stderr.write(`${failure.message}\n${failure.hint ? `${failure.hint}\n` : ''}`);
    return failure.exitCode;
  }
}

main().then((code) => process.exit(code));
