#!/usr/bin/env node
// profile-articles-mock [--port 4010] [--host 127.0.0.1] [--config FILE]
// profile-articles-mock verify ...   (checks a deployment against the contract; see docs/verify.md)
import { parseArgs } from 'node:util';
import { ConfigError } from './config.js';
import { parsePort, runMockCommand } from './run.js';

const USAGE = 'Usage: profile-articles-mock [--port 4010] [--host 127.0.0.1] [--config FILE]';

async function main(): Promise<number> {
  // Loaded only when asked for, so starting the mock does not pay for it.
  if (process.argv[2] === 'verify') {
    const { runVerifyCommand } = await import('./verify/command.js');
    return runVerifyCommand(process.argv.slice(3));
  }
  let values: { port?: string; host?: string; config?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        config: { type: 'string', short: 'c' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let port: number | undefined;
  try {
    port = parsePort(values.port);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  try {
    await runMockCommand({
      ...(port === undefined ? {} : { port }),
      ...(values.host ? { host: values.host } : {}),
      ...(values.config ? { configPath: values.config } : {}),
    });
    return 0;
  } catch (error) {
    const message =
      error instanceof ConfigError ? error.message : `Could not start the mock: ${(error as Error).message}`;
    process.stderr.write(`${message}\n`);
    return 1;
  }
}

main().then((code) => process.exit(code));
