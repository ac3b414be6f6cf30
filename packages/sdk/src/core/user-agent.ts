// Who is calling: the SDK's User-Agent, and the runtime it names. The version comes from
// package.json when the SDK is built (the bundler inlines the one field), so nothing reads the
// file system at run time; under vitest, from source, the import resolves the same way.
import { version } from '../../package.json';

/**
 * A client option only the CLI sets (through @profile-articles/sdk/internal): a product put
 * before the SDK's own in the User-Agent. `Symbol.for`, so the internal entry's symbol and the
 * public entry's are one, though each is its own bundle.
 */
export const USER_AGENT_PREFIX = Symbol.for('@profile-articles/sdk:user-agent-prefix');

type Globals = {
  Bun?: { version: string };
  Deno?: { version: { deno: string } };
  process?: { versions?: { node?: string } };
};

/**
 * The runtime as `name/version`: Bun and Deno first, since both also fill `process.versions.node`.
 * Undefined where none of the three is found (an edge runtime, a browser).
 */
export function runtime(): { name: 'bun' | 'deno' | 'node'; version: string } | undefined {
  const g = globalThis as Globals;
  if (g.Bun) return { name: 'bun', version: g.Bun.version };
  if (g.Deno) return { name: 'deno', version: g.Deno.version.deno };
  const node = g.process?.versions?.node;
  return node ? { name: 'node', version: node } : undefined;
}

/** `profile-articles-sdk/<version> node/<version>`, after `prefix` (the CLI's own product) when given. */
export function userAgent(prefix?: string): string {
  const at = runtime();
  return `${prefix ? `${prefix} ` : ''}profile-articles-sdk/${version}${at ? ` ${at.name}/${at.version}` : ''}`;
}
