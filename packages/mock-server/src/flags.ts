// @profile-articles/mock-server/flags: the flags of `profile-articles-mock`, declared once.
// The bin parses them (parseMockArgs); `profile-articles mock` builds its commander options
// from the same list (for its help and completion) and hands what it parsed to the same checks
// (mockOptionsFromFlags). This module imports nothing, so the CLI can bundle it into its
// start-up without loading the mock. Not public, like ./internal: it may change in any
// release, without a major version. (DEFAULT_PORT and DEFAULT_HOST are public through the
// package's main entry, which re-exports them.)

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';

export interface MockFlag {
  /** The long name, without the dashes. */
  name:
    | 'port'
    | 'host'
    | 'config'
    | 'allow-host'
    | 'admin-token'
    | 'admin-token-file'
    | 'data'
    | 'data-recover'
    | 'queued-ms'
    | 'running-ms'
    | 'tls'
    | 'tls-cert-out'
    | 'tls-cert'
    | 'tls-key'
    | 'log'
    | 'no-log';
  short?: string;
  /** What the value is called in help (`--port <port>`); none for a switch (`--log`). */
  value?: string;
  description: string;
  /** May be given more than once; the values are kept in order. */
  multiple?: true;
}

export const MOCK_FLAGS: readonly MockFlag[] = [
  {
    name: 'port',
    short: 'p',
    value: 'port',
    description: `port (default ${DEFAULT_PORT}; 0 picks a free one)`,
  },
  { name: 'host', value: 'host', description: `address to bind (default ${DEFAULT_HOST})` },
  { name: 'config', short: 'c', value: 'file', description: 'JSON config of accounts, jobs and payments' },
  {
    name: 'allow-host',
    value: 'name',
    description: 'also answer to this host name (repeatable; for containers)',
    multiple: true,
  },
  {
    name: 'admin-token',
    value: 'token',
    description:
      'require Authorization: Bearer TOKEN on /_mock/* (other local users can see it: prefer the next two)',
  },
  // The token from a file or PROFILE_ARTICLES_MOCK_ADMIN_TOKEN stays out of the process list.
  {
    name: 'admin-token-file',
    value: 'file',
    description: 'read the admin token from FILE (or set PROFILE_ARTICLES_MOCK_ADMIN_TOKEN)',
  },
  {
    name: 'data',
    value: 'dir',
    description: 'keep accounts, jobs, articles, keys, the ledger and the clock in DIR across restarts',
  },
  {
    name: 'data-recover',
    description:
      'start from a journal with a damaged record: keep every readable record, the damaged file as journal.log.bad-<time>',
  },
  { name: 'queued-ms', value: 'ms', description: 'how long a job stays queued (overrides the config)' },
  { name: 'running-ms', value: 'ms', description: 'how long a job then runs (overrides the config)' },
  {
    name: 'tls',
    description:
      'serve HTTPS on the same port, with a certificate made at start for loopback and --host/--allow-host',
  },
  {
    name: 'tls-cert-out',
    value: 'file',
    description:
      'where --tls writes its certificate, for NODE_EXTRA_CA_CERTS (default profile-articles-mock-cert.pem in the temporary folder)',
  },
  {
    name: 'tls-cert',
    value: 'file',
    description: 'serve HTTPS with your own certificate (PEM; with --tls-key)',
  },
  { name: 'tls-key', value: 'file', description: "your certificate's private key (PEM; with --tls-cert)" },
  { name: 'log', description: 'print one line per request (default when stdout is a terminal)' },
  { name: 'no-log', description: 'print no request lines' },
];

/** The flags as typed, before their checks; commander's camel-case names. */
export interface MockFlags {
  port?: string | undefined;
  host?: string | undefined;
  config?: string | undefined;
  allowHost?: string[] | undefined;
  adminToken?: string | undefined;
  adminTokenFile?: string | undefined;
  data?: string | undefined;
  dataRecover?: boolean | undefined;
  queuedMs?: string | undefined;
  runningMs?: string | undefined;
  tls?: boolean | undefined;
  tlsCertOut?: string | undefined;
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  /** `--log` true, `--no-log` false, neither undefined (the default then depends on stdout). */
  log?: boolean | undefined;
}

/** What the checked flags ask of the runner (RunMockOptions adds where its lines go). */
export interface MockFlagOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Path of a JSON config file. */
  configPath?: string;
  /** Host names to answer to besides the listening address and loopback (added to config `allowHosts`). */
  allowHosts?: string[];
  /** Guards `/_mock/*` with `Authorization: Bearer <token>` (overrides config `adminToken`). */
  adminToken?: string;
  /** `--admin-token-file`: the token is read from it (one trailing newline dropped); never with `adminToken`. */
  adminTokenFile?: string;
  /** The folder the state lives in across restarts (config `dataDir`). */
  dataDir?: string;
  /** `--data-recover`: a journal with a damaged record before its end is recovered, not refused. */
  dataRecover?: boolean;
  /** Job timings, over the config's `jobs`. */
  queuedMs?: number;
  runningMs?: number;
  /** `--tls`: HTTPS with a certificate made at start (also true with `tlsCert`). */
  tls?: boolean;
  /** `--tls-cert-out`: where the made certificate is written (default in os.tmpdir()). */
  tlsCertOut?: string;
  /** `--tls-cert` and `--tls-key`: the user's own certificate and key, both or neither. */
  tlsCert?: string;
  tlsKey?: string;
  /** `--log`: one line per request on stdout; undefined: on when stdout is a terminal. */
  logRequests?: boolean;
}

/** A flag the mock does not know, or a flag without its value: a usage error (exit 2) from both commands. */
export class MockUsageError extends Error {
  override name = 'MockUsageError';
}

/** How help shows a flag, and how commander names it in its messages: `-p, --port <port>`. */
export function flagSpelling(flag: MockFlag): string {
  return `${flag.short ? `-${flag.short}, ` : ''}--${flag.name}${flag.value ? ` <${flag.value}>` : ''}`;
}

const camel = (name: string) => name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

/**
 * Parses the bin's arguments with the same rules commander applies to `profile-articles mock`:
 * `--flag value`, `--flag=value`, `-p value`; a repeated single flag keeps the last value.
 */
export function parseMockArgs(args: readonly string[]): { flags: MockFlags; help: boolean } {
  const flags: Record<string, string | string[] | boolean> = {};
  const extra: string[] = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('-')) {
      extra.push(arg);
      continue;
    }
    const [given, inline] = arg.startsWith('--') ? splitOnce(arg, '=') : [arg, undefined];
    const flag = MOCK_FLAGS.find((f) => `--${f.name}` === given || (f.short && `-${f.short}` === given));
    // A switch takes no value: commander names `--log=x` an unknown option whole.
    if (!flag || (!flag.value && inline !== undefined)) throw new MockUsageError(`unknown option '${arg}'`);
    if (!flag.value) {
      if (flag.name === 'log' || flag.name === 'no-log') flags.log = flag.name === 'log';
      else flags[camel(flag.name)] = true;
      continue;
    }
    const value = inline ?? args[++i];
    // Like commander, the next argument is the value even when it starts with a dash.
    if (value === undefined) throw new MockUsageError(`option '${flagSpelling(flag)}' argument missing`);
    const key = camel(flag.name);
    flags[key] = flag.multiple ? [...((flags[key] as string[] | undefined) ?? []), value] : value;
  }
  // Worded as commander (15) words it, so both commands say the same.
  if (extra.length && !help)
    throw new MockUsageError(
      `too many arguments for 'mock'. Expected 0 arguments but got ${extra.length}: ${extra.join(', ')}.`,
    );
  return { flags: flags as MockFlags, help };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** `--port` as typed: a whole number from 0 to 65535 (0: any free port). Throws RangeError otherwise. */
function parsePort(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`--port must be a whole number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

/** `--queued-ms` and `--running-ms` as typed: a whole number of milliseconds, as the config takes. */
function parseMs(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (raw.trim() === '' || !Number.isSafeInteger(ms) || ms < 0) {
    throw new RangeError(`--${name} must be a whole number of milliseconds (0 or more), got "${raw}"`);
  }
  return ms;
}

/** Checks the flags both commands share and turns them into options. Throws RangeError for a bad one. */
export function mockOptionsFromFlags(flags: MockFlags): MockFlagOptions {
  const port = parsePort(flags.port);
  const queuedMs = parseMs('queued-ms', flags.queuedMs);
  const runningMs = parseMs('running-ms', flags.runningMs);
  if (flags.data !== undefined && flags.data.trim() === '') throw new RangeError('--data must name a folder');
  if (flags.adminToken !== undefined && flags.adminToken.trim() === '')
    throw new RangeError('--admin-token must not be empty');
  if (flags.adminToken !== undefined && flags.adminTokenFile !== undefined)
    throw new RangeError('Give --admin-token or --admin-token-file, not both');
  if (flags.adminTokenFile?.trim() === '') throw new RangeError('--admin-token-file must name a file');
  checkTlsFlags(flags);
  const badHost = flags.allowHost?.find((host) => host.trim() === '' || /[\s/@]/.test(host));
  if (badHost !== undefined) throw new RangeError(`--allow-host takes a host name, got "${badHost}"`);
  return {
    ...(port === undefined ? {} : { port }),
    ...(flags.host ? { host: flags.host } : {}),
    ...(flags.config ? { configPath: flags.config } : {}),
    ...(flags.allowHost?.length ? { allowHosts: flags.allowHost } : {}),
    ...(flags.adminToken === undefined ? {} : { adminToken: flags.adminToken }),
    ...(flags.adminTokenFile === undefined ? {} : { adminTokenFile: flags.adminTokenFile }),
    ...(flags.data === undefined ? {} : { dataDir: flags.data }),
    ...(flags.dataRecover ? { dataRecover: true } : {}),
    ...(queuedMs === undefined ? {} : { queuedMs }),
    ...(runningMs === undefined ? {} : { runningMs }),
    ...(flags.tls || flags.tlsCert !== undefined ? { tls: true } : {}),
    ...(flags.tlsCertOut === undefined ? {} : { tlsCertOut: flags.tlsCertOut }),
    ...(flags.tlsCert === undefined ? {} : { tlsCert: flags.tlsCert }),
    ...(flags.tlsKey === undefined ? {} : { tlsKey: flags.tlsKey }),
    ...(flags.log === undefined ? {} : { logRequests: flags.log }),
  };
}

/**
 * `--tls` makes a certificate and writes it to `--tls-cert-out`; `--tls-cert` with `--tls-key`
 * serves the user's own instead (with or without `--tls`), so nothing is made or written.
 */
function checkTlsFlags(flags: MockFlags): void {
  for (const [name, value] of [
    ['tls-cert-out', flags.tlsCertOut],
    ['tls-cert', flags.tlsCert],
    ['tls-key', flags.tlsKey],
  ] as const)
    if (value?.trim() === '') throw new RangeError(`--${name} must name a file`);
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined))
    throw new RangeError('Give --tls-cert and --tls-key together: the certificate and its private key');
  if (flags.tlsCertOut !== undefined && flags.tlsCert !== undefined)
    throw new RangeError(
      '--tls-cert-out writes the certificate --tls makes; with --tls-cert, clients trust your own certificate',
    );
  if (flags.tlsCertOut !== undefined && !flags.tls)
    throw new RangeError('--tls-cert-out needs --tls (it names where the certificate --tls makes goes)');
}
