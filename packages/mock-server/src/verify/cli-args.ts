// `profile-articles-mock verify` flags and environment into VerifyOptions. The key and
// the origin come from the environment by preference: a key on a command line lands in
// shell history. A flag, when given, wins over the environment.
import { parseArgs } from 'node:util';
import { API_PREFIX } from '@profile-articles/sdk/schemas';
import type { VerifyOptions } from './context.js';

export const VERIFY_USAGE = `Usage: profile-articles-mock verify [--base-url URL] [--api-key KEY] [--spend CREDITS]
                                  [--profile SLUG] [--generate-profile SLUG] [--check-rate-limit] [--json]
Key and origin: PROFILE_ARTICLES_API_KEY and PROFILE_ARTICLES_BASE_URL (preferred over the flags).
Exit codes: 0 every check that ran passed, 1 a check failed or the origin is unreachable,
2 bad usage or no key, 4 the key was refused.`;

/** The contract advises polling about every 10 s. */
const DEFAULT_POLL_SECONDS = 10;

export class UsageError extends Error {
  override name = 'UsageError';
}

export type ParsedVerifyArgs = { help: true } | { help: false; json: boolean; options: VerifyOptions };

function wholeNumber(raw: string, what: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < 0) {
    throw new UsageError(`${what} must be a whole number of 0 or more, got "${raw}"`);
  }
  return value;
}

/** As the SDK reads a base URL: `https://host/prefix/api/v1/` means `https://host/prefix`. */
function origin(raw: string | undefined): string {
  if (!raw) throw new UsageError('No origin: set PROFILE_ARTICLES_BASE_URL or pass --base-url');
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
      args: argv,
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
  const apiKey = (values['api-key'] as string | undefined) || env.PROFILE_ARTICLES_API_KEY;
  if (!apiKey) throw new UsageError('No API key: set PROFILE_ARTICLES_API_KEY (or pass --api-key)');
  const poll = env.PROFILE_ARTICLES_POLL_INTERVAL;
  const options: VerifyOptions = {
    origin: origin((values['base-url'] as string | undefined) || env.PROFILE_ARTICLES_BASE_URL),
    apiKey,
    spend: values.spend === undefined ? 0 : wholeNumber(values.spend as string, '--spend'),
    checkRateLimit: values['check-rate-limit'] === true,
    pollIntervalMs:
      1000 * (poll ? wholeNumber(poll, 'PROFILE_ARTICLES_POLL_INTERVAL') : DEFAULT_POLL_SECONDS),
  };
  if (values.profile) options.profile = values.profile as string;
  if (values['generate-profile']) options.generateProfile = values['generate-profile'] as string;
  return { help: false, json: values.json === true, options };
}
