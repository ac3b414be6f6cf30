// Log levels: which of the logger's methods the SDK calls, every line redacted, and the SDK's
// own warnings. A level below the threshold, or a method the logger lacks, is no function at
// all, so `log.debug?.(`…`)` does not even build its line (a call's CPU matters: see
// docs/performance.md).

import { InvalidArgumentError } from '../errors/errors.js';
import { isLoopbackHost } from './defaults.js';

export type LogMethod = (message: string, meta?: Record<string, unknown>) => void;

/**
 * Where the SDK's log lines go: `console` (the default), pino, winston… Each method is one
 * level; a method the object lacks is a level it does not hear.
 */
export interface Logger {
  error?: LogMethod;
  warn?: LogMethod;
  info?: LogMethod;
  debug?: LogMethod;
}

/** `'warn'` (the default) hears `'error'` and `'warn'`; `'debug'` hears every level; `'off'` none. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

const LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const;

/** The levels this client logs at, each taking a line the logger gets redacted. */
export type Log = { [L in Exclude<LogLevel, 'off'>]?: (line: string) => void };

/**
 * `from` names where `level` came from: the `logLevel` option, whose unknown level is an
 * InvalidArgumentError, or the environment's variable, whose unknown level is warned of and the
 * default used, as openai-node does: a setting of the environment must not stop a service at start.
 */
export function createLog(
  logger: Logger,
  level: string,
  from: string,
  redact: (text: string) => string,
): Log {
  let rank = LEVELS.indexOf(level as LogLevel);
  const levels = `one of ${LEVELS.join(', ')}`;
  if (rank < 0) {
    if (from === 'logLevel')
      throw new InvalidArgumentError(`logLevel must be ${levels}; got ${JSON.stringify(level)}`);
    rank = 2; // warn, the default
  }
  const log: Log = {};
  for (const name of LEVELS.slice(1, rank + 1) as Array<keyof Log>) {
    // Called as a method: pino and winston need their `this`.
    if (typeof logger[name] === 'function') log[name] = (line) => logger[name]!(redact(line));
  }
  if (level !== LEVELS[rank])
    log.warn?.(`${from} is ${JSON.stringify(level)}, not ${levels}: logging at warn, the default`);
  return log;
}

/**
 * The warning for an origin of plain http to another machine (the key would travel
 * unencrypted), or undefined: https, and loopback, where it never leaves this machine.
 */
export function plainHttpWarning(baseUrl: string): string | undefined {
  const { protocol, hostname, origin } = new URL(baseUrl);
  // A *.localhost name is this machine too (RFC 6761): no warning, though it is not polled as loopback.
  if (protocol !== 'http:' || isLoopbackHost(hostname) || hostname.endsWith('.localhost')) return;
  return `${origin} is plain http to another machine: your API key travels unencrypted. Use https.`;
}
