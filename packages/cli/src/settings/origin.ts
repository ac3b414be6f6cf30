// The API origin as the CLI reads it: checked where it is given (a flag, the environment, the
// settings file) so that a typo is a usage error naming that place, not "Invalid URL" from deep
// inside a request; and compared as an origin, because a stored key goes only to its own.
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import { isLoopbackHost } from './loopback.js';

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * `raw` when it is an http(s) URL; otherwise a usage error that names `from` and, for a host
 * typed without its scheme (`127.0.0.1:4010`, or `localhost:4010`, which the URL parser takes
 * for a scheme), the URL that was most likely meant. A value holding `@` may hold a password: it is
 * never echoed.
 */
export function checkBaseUrl(raw: string, from: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (
    url &&
    HAS_SCHEME.test(raw) &&
    !/\s/.test(raw) &&
    (url.protocol === 'http:' || url.protocol === 'https:')
  )
    return raw;
  const shown = raw.includes('@') ? '' : `, got "${raw}"`;
  if (!HAS_SCHEME.test(raw) && URL.canParse(`http://${raw}`) && !/\s/.test(raw)) {
    // http for this machine (the mock), https for any other.
    const scheme = isLoopbackHost(new URL(`http://${raw}`).hostname) ? 'http' : 'https';
    throw new CliError(
      `${from} must be an http:// or https:// URL: it has no scheme${shown}.`,
      ExitCode.Usage,
      raw.includes('@') ? 'Begin it with http:// or https://.' : `Did you mean ${scheme}://${raw}?`,
    );
  }
  throw new CliError(
    `${from} must be an http:// or https:// URL${shown}.`,
    ExitCode.Usage,
    'Such as https://api.example.com, or http://127.0.0.1:4010 for a local mock.',
  );
}

/** Scheme, host and port as the URL parser writes them (`HTTP://Host:80/x` is `http://host`). */
export function originOf(url: string): string {
  return new URL(url).origin;
}
