// Runs the mock in the foreground until SIGINT or SIGTERM: the bin and `profile-articles mock` share it.
import { readFile } from 'node:fs/promises';
import { ConfigError, type NormalizedConfig, parseConfigText } from './config.js';
import { DEFAULT_HOST, DEFAULT_PORT, startMockServer } from './node.js';

export interface RunMockOptions {
  port?: number;
  host?: string;
  /** Path of a JSON config file. */
  configPath?: string;
  /** Where the "listening" line goes. */
  log?: (line: string) => void;
  /** Where warnings and the mock's own errors go; stderr by default. */
  warn?: (line: string) => void;
}

export async function loadConfigFile(path: string): Promise<NormalizedConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  return parseConfigText(text);
}

/** `--port` as typed: a whole number from 0 to 65535 (0: any free port). Throws RangeError otherwise. */
export function parsePort(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`--port must be a whole number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

/** Resolves once the server has stopped after a signal. */
export async function runMockCommand(options: RunMockOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const config = options.configPath ? await loadConfigFile(options.configPath) : undefined;
  const server = await startMockServer({
    port: options.port ?? DEFAULT_PORT,
    host: options.host ?? DEFAULT_HOST,
    ...(config ? { config } : {}),
    onError: (error) =>
      warn(`mock: internal error: ${error instanceof Error ? error.message : String(error)}`),
  });
  const keys = server.service.config.accounts.flatMap((account) => account.apiKeys);
  log(`Profile Article Service mock listening on ${server.url}`);
  if (!options.configPath)
    log(`Demo account: API key ${keys[0]}, ${server.service.config.accounts[0]?.credits} credits`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
