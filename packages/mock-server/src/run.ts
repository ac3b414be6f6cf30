// Runs the mock in the foreground until SIGINT or SIGTERM: the bin and `profile-articles mock` share it.
import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { terminalSafe } from '@profile-articles/sdk/internal/terminal';
import type { MockConfig, NormalizedConfig } from './config/config.js';
import type { StatusPainter } from './console/request-log.js';
import { DEFAULT_HOST, DEFAULT_PORT, type MockFlagOptions } from './flags.js';
import { type StartOptions, serveMock } from './node.js';
import { ConfigError } from './rules/config-error.js';
import { isLoopback } from './rules/request/hosts.js';

/** The pair to serve, and the file the made certificate went to (none for the user's own). */
interface TlsSetup {
  pair: { cert: string; key: string };
  certPath?: string;
}

/**
 * `--tls`: a certificate made for loopback, `--host` and every allowed name, written where
 * clients read it; `--tls-cert`/`--tls-key`: the user's own. The key stays in this process.
 */
async function tlsSetup(
  options: RunMockOptions,
  host: string,
  allowHosts: readonly string[],
): Promise<TlsSetup | undefined> {
  if (!options.tls && options.tlsCert === undefined) return undefined;
  const { certificateNames, defaultCertPath, makeCertificate, readOwnPair, writeCertificate } = await import(
    './console/tls-certificate.js'
  );
  if (options.tlsCert !== undefined && options.tlsKey !== undefined) {
    const pair = readOwnPair(options.tlsCert, options.tlsKey);
    try {
      (await import('node:tls')).createSecureContext(pair);
    } catch (error) {
      throw new ConfigError(
        `--tls-cert ${options.tlsCert} and --tls-key ${options.tlsKey} are not a PEM certificate and its private key (${(error as { code?: string }).code ?? (error as Error).message})`,
      );
    }
    return { pair };
  }
  // Printed whole: the client that trusts it runs in another terminal, maybe in another folder.
  const certPath = options.tlsCertOut === undefined ? defaultCertPath() : resolvePath(options.tlsCertOut);
  const pair = await makeCertificate(certificateNames(host, allowHosts));
  writeCertificate(certPath, pair.cert);
  return { pair, certPath };
}

/** The checked flags, and where the runner's lines go. */
export interface RunMockOptions extends MockFlagOptions {
  /** Where the "listening" line goes. */
  log?: (line: string) => void;
  /** Where warnings and the mock's own errors go; stderr by default. */
  warn?: (line: string) => void;
  /** Where request lines (`--log`) go, already one safe line each; stdout by default. */
  requestLine?: (line: string) => void;
  /** Colours a request line's status; ANSI when stdout is a terminal that takes colour, else none. */
  paintStatus?: StatusPainter;
  /** Whether stdout is a terminal: `--log`'s default. */
  stdoutIsTTY?: boolean;
  /** Where PROFILE_ARTICLES_MOCK_ADMIN_TOKEN is read; process.env by default. */
  env?: NodeJS.ProcessEnv;
}

/** The environment variable that gives the admin token without putting it in the process list. */
const ADMIN_TOKEN_ENV = 'PROFILE_ARTICLES_MOCK_ADMIN_TOKEN';

/**
 * The admin token: `--admin-token` or `--admin-token-file` (never both: the flags' check),
 * else PROFILE_ARTICLES_MOCK_ADMIN_TOKEN, else the config's `adminToken`. A file's one trailing
 * newline (what `echo TOKEN > FILE` writes) is not part of the token.
 */
async function adminTokenOf(
  options: RunMockOptions,
  configured: string | undefined,
): Promise<string | undefined> {
  if (options.adminToken !== undefined) return options.adminToken;
  if (options.adminTokenFile !== undefined) {
    let text: string;
    try {
      text = await readFile(options.adminTokenFile, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `Cannot read the admin token file ${options.adminTokenFile}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    const token = text.replace(/\r?\n$/, '');
    if (token.trim() === '') throw new ConfigError(`The admin token file ${options.adminTokenFile} is empty`);
    return token;
  }
  const fromEnv = (options.env ?? process.env)[ADMIN_TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv.trim() === '') throw new ConfigError(`${ADMIN_TOKEN_ENV} is blank`);
    return fromEnv;
  }
  return configured;
}

function colourTerminal(env: NodeJS.ProcessEnv): boolean {
  return process.stdout.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

async function loadConfigFile(path: string): Promise<NormalizedConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  // zod comes with the config module: loaded only for a config file, not for a bare start.
  const { parseConfigText } = await import('./config/config.js');
  return parseConfigText(text);
}

/** `--log`'s hearer: each request's line, formatted with the running service's keys redacted. */
async function requestLogger(options: RunMockOptions): Promise<NonNullable<StartOptions['onRequest']>> {
  const { ansiStatus, createRequestLine, plainStatus } = await import('./console/request-log.js');
  const paint = options.paintStatus ?? (colourTerminal(process.env) ? ansiStatus : plainStatus);
  const write = options.requestLine ?? ((line: string) => process.stdout.write(`${line}\n`));
  let line: ReturnType<typeof createRequestLine> | undefined;
  return (entry, service) => {
    const { accounts, adminToken } = service.config;
    line ??= createRequestLine(
      [...accounts.flatMap((account) => account.apiKeys), ...(adminToken === undefined ? [] : [adminToken])],
      paint,
    );
    write(line(entry));
  };
}

/** Resolves once the server has stopped after a signal. */
export async function runMockCommand(options: RunMockOptions = {}): Promise<void> {
  // Each line on its own line, without control characters: a warning quotes a flag or an error
  // that a request or a config file may have written.
  const log = options.log ?? ((line: string) => process.stdout.write(`${terminalSafe(line)}\n`));
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${terminalSafe(line)}\n`));
  const loaded = options.configPath ? await loadConfigFile(options.configPath) : undefined;
  const adminToken = await adminTokenOf(options, loaded?.adminToken);
  // Without a file the service fills in the defaults (the demo account) once it is loaded.
  // The timing flags override the config's `jobs`, each on its own.
  const dataDir = options.dataDir ?? loaded?.dataDir;
  const jobs = {
    ...loaded?.jobs,
    ...(options.queuedMs === undefined ? {} : { queuedMs: options.queuedMs }),
    ...(options.runningMs === undefined ? {} : { runningMs: options.runningMs }),
  };
  const config: MockConfig | NormalizedConfig = {
    ...loaded,
    allowHosts: [...(loaded?.allowHosts ?? []), ...(options.allowHosts ?? [])],
    ...(adminToken === undefined ? {} : { adminToken }),
    ...(Object.keys(jobs).length ? { jobs } : {}),
    ...(dataDir === undefined ? {} : { dataDir }),
  };
  if (options.dataRecover && dataDir === undefined)
    throw new ConfigError("--data-recover needs a data folder: --data DIR, or the config file's dataDir");
  const host = options.host ?? DEFAULT_HOST;
  const tls = await tlsSetup(options, host, config.allowHosts ?? []);
  if (!isLoopback(host)) {
    warn(
      `Warning: the mock listens on ${host}, so other machines can reach it. It has no real security: ` +
        'its keys are in its config, anyone who reaches it can spend and buy credits. ' +
        'Use an admin token (--admin-token-file or PROFILE_ARTICLES_MOCK_ADMIN_TOKEN), and --allow-host for the names it is reached by.',
    );
  }
  // Heard from the start: the URL is printed before the service has loaded, and a Ctrl-C
  // then must still stop the mock cleanly (code 0) once it has.
  let signalled = false;
  let stop = () => {
    signalled = true;
  };
  const onSignal = () => stop();
  const unlisten = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const onRequest =
    (options.logRequests ?? options.stdoutIsTTY ?? process.stdout.isTTY === true)
      ? await requestLogger(options)
      : undefined;
  // The URL is printed as soon as the port listens; the service loads right after.
  const server = await serveMock(
    {
      port: options.port ?? DEFAULT_PORT,
      host,
      config,
      ...(options.dataRecover ? { dataRecover: true } : {}),
      ...(onRequest ? { onRequest } : {}),
      ...(tls ? { tls: tls.pair } : {}),
      onNote: warn,
      onError: (error) =>
        warn(`mock: internal error: ${error instanceof Error ? error.message : String(error)}`),
    },
    (url) => log(`Profile Article Service mock listening on ${url}`),
  ).catch((error: unknown) => {
    unlisten();
    throw error;
  });
  // Where a person sees what the mock holds (docs/mock-server.md, "The dashboard").
  log(`Dashboard: ${server.url}/_mock/`);
  if (tls?.certPath !== undefined)
    log(`TLS certificate: ${tls.certPath} (clients trust it with NODE_EXTRA_CA_CERTS=${tls.certPath})`);
  const keys = server.service.config.accounts.flatMap((account) => account.apiKeys);
  const { accounts } = server.service.config;
  if (!options.configPath)
    log(`Demo account: API key ${keys[0]}, ${server.service.balance(accounts[0]?.id ?? '')} credits`);
  else {
    // In the demo line's place: the config's accounts by id (their keys are in the file).
    const named = accounts
      .slice(0, 5)
      .map((account) => `${account.id} (${server.service.balance(account.id)} credits)`);
    const more = accounts.length > 5 ? ` and ${accounts.length - 5} more` : '';
    log(`Accounts: ${named.join(', ')}${more}, from ${options.configPath}`);
  }
  if (adminToken !== undefined) log('Control endpoints (/_mock/*) need the admin token');
  if (dataDir !== undefined) log(`State kept in ${dataDir} across restarts`);
  // A stop that cannot write the data folder's snapshot rejects (a ConfigError saying what is
  // kept): the bin and `profile-articles mock` then say so on stderr and exit 1, not 0.
  await new Promise<void>((resolve, reject) => {
    stop = () => {
      unlisten();
      server.close().then(resolve, reject);
    };
    if (signalled) stop();
  });
}
