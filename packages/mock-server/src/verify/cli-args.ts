// `profile-articles-mock verify` flags and environment into VerifyOptions. The key and
// the origin are read from the environment; a flag, when given, overrides it. The
// environment is preferred for the key: a key on a command line lands in shell history.
import { parseArgs } from 'node:util';
import { InvalidArgumentError } from '@profile-articles/sdk';
import { API_PREFIX, checkApiKey, defaultOptions } from '@profile-articles/sdk/internal';
import type { VerifyOptions } from './context.js';

export const VERIFY_USAGE = `Usage: profile-articles-mock verify [--base-url URL] [--api-key KEY] [--spend CREDITS]
                                  [--profile SLUG] [--generate-profile SLUG] [--check-rate-limit] [--json]
Key and origin are read from PROFILE_ARTICLES_API_KEY and PROFILE_ARTICLES_BASE_URL;
a flag overrides its variable. Prefer the environment for the key: a key on a command line
lands in shell history.
PROFILE_ARTICLES_POLL_INTERVAL: seconds between polls of a job (default ${defaultOptions.pollIntervalMs / 1000}).
Exit codes: 0 every check that ran passed, 1 a check failed or the origin is unreachable,
2 bad usage or no key, 4 the key was refused.`;

export class UsageError extends Error {
  override name = 'UsageError';
  /** Whether the usage text follows the message: not for a key, which no flag would fix. */
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

/**
 * The SDK's rule for a key (printable ASCII, at least 8 characters): a shorter key could be an
 * ordinary word, which scrubbing the key from the report would rewrite. The SDK's message
 * never echoes the key.
 */
function acceptedKey(apiKey: string): string {
  try {
    return checkApiKey(apiKey);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new UsageError(error.message, false);
    throw error;
  }
}

/** Where the key came from, so that a refusal can say what to fix. */
type KeySource = '--api-key' | 'PROFILE_ARTICLES_API_KEY';

type ParsedVerifyArgs =
  | { help: true }
  | { help: false; json: boolean; options: VerifyOptions; keyFrom: KeySource };

/** Plain digits only: Number() would take `1e3`, `0x10` and ` 5`, and round huge values. */
function wholeNumber(raw: string, what: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${what} must be a whole number of 0 or more, got "${raw}"`);
  }
  return value;
}

/** The longest timer Node keeps: a longer poll interval would fire at once. */
const MAX_POLL_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/**
 * Seconds, a fraction allowed, as the CLI reads the same variable (`0.2`): plain digits and one
 * point only, so that `1e3`, `0x10` and ` 5` are refused rather than read as something else.
 */
function seconds(raw: string, what: string): number {
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value > MAX_POLL_SECONDS) {
    throw new UsageError(`${what} must be a number of seconds from 0 to ${MAX_POLL_SECONDS}, got "${raw}"`);
  }
  return Math.round(value * 1000);
}

/** parseArgs reads `--spend -1` as a missing value; glue it so that the real message shows. */
function glueNegativeSpend(argv: string[]): string[] {
  const glued: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (argv[i] === '--spend' && next !== undefined && /^-\d/.test(next)) {
      glued.push(`--spend=${next}`);
      i++;
    } else glued.push(argv[i]!);
  }
  return glued;
}

function slug(raw: string | boolean | undefined, flag: string): string | undefined {
  if (raw === undefined) return undefined;
  if (raw === '') throw new UsageError(`${flag} needs a profile slug, got ""`);
  return raw as string;
}

/** As the SDK reads a base URL: `https://host/prefix/api/v1/` means `https://host/prefix`. */
function origin(raw: string | undefined): string {
  if (!raw) throw new UsageError('No origin: set PROFILE_ARTICLES_BASE_URL or pass --base-url');
  // `localhost:4010` parses with the scheme `localhost:`, `127.0.0.1:4010` not at all: a host
  // typed without its scheme gets the URL it most likely meant, as the SDK and the CLI say.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) && URL.canParse(`http://${raw}`)) {
    if (raw.includes('@'))
      throw new UsageError('--base-url has no scheme: begin it with http:// or https://');
    const { hostname } = new URL(`http://${raw}`);
    const local = hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
    throw new UsageError(
      `--base-url has no scheme: "${raw}" (did you mean "${local ? 'http' : 'https'}://${raw}"?)`,
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError('--base-url is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--base-url must be http or https, got "${url.protocol}"`);
  }
  // The report prints the origin; the key is the only credential verify sends.
  if (url.username || url.password) throw new UsageError('--base-url must not contain user:password@');
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '').replace(new RegExp(`${API_PREFIX}$`), '');
}

export function parseVerifyArgs(argv: string[], env: NodeJS.ProcessEnv): ParsedVerifyArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: glueNegativeSpend(argv),
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        spend: { type: 'string' },
        profile: { type: 'string' },
        'generate-profile': { type: 'string' },
        'check-rate-limit': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { help: true };
  const flagKey = values['api-key'] as string | undefined;
  const apiKey = flagKey || env.PROFILE_ARTICLES_API_KEY;
  if (!apiKey) throw new UsageError('No API key: set PROFILE_ARTICLES_API_KEY (or pass --api-key)');
  const poll = env.PROFILE_ARTICLES_POLL_INTERVAL;
  const options: VerifyOptions = {
    origin: origin((values['base-url'] as string | undefined) || env.PROFILE_ARTICLES_BASE_URL),
    apiKey: acceptedKey(apiKey),
    spend: values.spend === undefined ? 0 : wholeNumber(values.spend as string, '--spend'),
    checkRateLimit: values['check-rate-limit'] === true,
    // The SDK's default: the contract advises polling about every 10 s.
    pollIntervalMs: poll ? seconds(poll, 'PROFILE_ARTICLES_POLL_INTERVAL') : defaultOptions.pollIntervalMs,
  };
  const profile = slug(values.profile, '--profile');
  const generateProfile = slug(values['generate-profile'], '--generate-profile');
  if (profile) options.profile = profile;
  if (generateProfile) options.generateProfile = generateProfile;
  const keyFrom: KeySource = flagKey ? '--api-key' : 'PROFILE_ARTICLES_API_KEY';
  return { help: false, json: values.json === true, options, keyFrom };
}
