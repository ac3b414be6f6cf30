// The proxy the CLI's requests go through, from the environment, as curl and gh read it:
// HTTPS_PROXY for an https origin, HTTP_PROXY for an http one (each in lower or upper case,
// lower first, as curl), unless NO_PROXY names the origin's host. Loopback is never proxied,
// as gh (Go's net/http) does: a proxy cannot reach this machine's 127.0.0.1, and the mock runs
// there. The SDK does the proxying (its `proxy` option); this only chooses.
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import { isLoopbackHost } from './loopback.js';

type Env = Record<string, string | undefined>;

/** The variable's value in lower case, else upper case; empty counts as unset. */
function either(env: Env, name: string): { name: string; value: string } | undefined {
  for (const spelled of [name.toLowerCase(), name.toUpperCase()]) {
    const value = env[spelled]?.trim();
    if (value) return { name: spelled, value };
  }
  return undefined;
}

/**
 * A name without its trailing dot: `example.com.` (fully qualified) is the host `example.com`,
 * which DNS resolves the same, so neither side's dot may defeat a match (curl drops both).
 */
const undotted = (name: string) => name.replace(/\.$/, '');

/**
 * Whether NO_PROXY exempts `host` (lower case, IPv6 without brackets) on `port`, by curl's
 * rules: a comma-separated list; `*` alone exempts every host; an entry matches its host and
 * every name under it (`example.com` and `.example.com` both match `api.example.com`, and `*.`
 * before a name is read as `.`); an entry with `:port` matches that port only; a trailing dot
 * on the host or on an entry is dropped.
 */
export function exempt(noProxy: string, rawHost: string, port: string): boolean {
  const host = undotted(rawHost);
  return noProxy
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .some((entry) => {
      if (entry === '*') return true;
      // A port after a name or a bracketed IPv6 address; a bare IPv6 address has colons of its own.
      const match = /^(\[[^\]]*\]|[^:]*):(\d+)$/.exec(entry);
      const [name, wanted] = match ? [match[1] ?? '', match[2]] : [entry, undefined];
      if (wanted !== undefined && wanted !== port) return false;
      const bare = undotted(name.replace(/^\[|\]$/g, '').replace(/^\*?\./, ''));
      return bare !== '' && (host === bare || host.endsWith(`.${bare}`));
    });
}

/**
 * The proxy URL for requests to `baseUrl`, or undefined for none. A value without a scheme is
 * http, as curl reads it. A value that is no URL is a usage error naming the variable, never
 * echoing the value, which may hold a password.
 */
export function proxyFromEnv(baseUrl: string, env: Env): string | undefined {
  const url = new URL(baseUrl);
  const hostname = undotted(url.hostname);
  if (isLoopbackHost(hostname) || hostname.endsWith('.localhost')) return undefined;
  const host = hostname.replace(/^\[|\]$/g, '');
  const secure = url.protocol === 'https:';
  const proxy = either(env, secure ? 'https_proxy' : 'http_proxy');
  if (!proxy) return undefined;
  const port = url.port || (secure ? '443' : '80');
  const noProxy = either(env, 'no_proxy');
  if (noProxy && exempt(noProxy.value, host, port)) return undefined;
  const value = /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy.value) ? proxy.value : `http://${proxy.value}`;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new CliError(
      `${proxy.name} is not an http:// or https:// proxy URL.`,
      ExitCode.Usage,
      `Set it to the proxy's URL, such as http://proxy.example.com:3128, or unset it.`,
    );
  }
  return parsed.href;
}
