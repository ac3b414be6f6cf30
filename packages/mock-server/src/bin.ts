#!/usr/bin/env node
// profile-articles-mock [--port PORT] [--host HOST] [--config FILE] [--allow-host NAME]… [--admin-token TOKEN]
// profile-articles-mock verify ...   (checks a deployment against the contract; see docs/verify.md)
import { parseArgs } from 'node:util';
import { DEFAULT_HOST, DEFAULT_PORT } from './node.js';
import {
  MOCK_ARGS,
  type MockFlags,
  mockOptionsFromFlags,
  type RunMockOptions,
  runMockCommand,
} from './run.js';
import { mockStartFailure } from './start-failure.js';

const USAGE = `Usage: profile-articles-mock [--port ${DEFAULT_PORT}] [--host ${DEFAULT_HOST}] [--config FILE] [--allow-host NAME]... [--admin-token TOKEN]
       profile-articles-mock verify [options]   (checks a deployment against the contract; verify --help)`;

async function main(): Promise<number> {
  // Loaded only when asked for, so starting the mock does not pay for it.
  if (process.argv[2] === 'verify') {
    const { runVerifyCommand } = await import('./verify/command.js');
    return runVerifyCommand(process.argv.slice(3));
  }
  let flags: MockFlags;
  let help: boolean | undefined;
  try {
    const { values } = parseArgs({ options: MOCK_ARGS });
    const { 'allow-host': allowHost, 'admin-token': adminToken, help: wantsHelp, ...rest } = values;
    flags = { ...rest, allowHost, adminToken };
    help = wantsHelp;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
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
