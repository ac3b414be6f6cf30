// The published packages promise Node 20 (`engines: >=20`). npm installs their runtime
// dependencies, and those of them, on the customer's Node: each must accept every Node our
// `engines` accepts, or a Node 20 user gets EBADENGINE warnings (or, under engine-strict, no
// install) for a package we chose. A dependency that is bundled into our build belongs in
// devDependencies, where npm does not install it.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const PUBLISHED = ['sdk', 'cli', 'mock-server'];

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
}

const read = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** Where Node would find `name` from `dir`: the nearest node_modules up the tree, links followed. */
function installed(name: string, dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(at) === at) return undefined;
  }
}

/** Every package npm would install beside `dir`'s own, with the range of Node it accepts. */
function runtimeTree(dir: string): Map<string, string | undefined> {
  const found = new Map<string, string | undefined>();
  const visit = (from: string) => {
    for (const [name, range] of Object.entries(read(from).dependencies ?? {})) {
      if (range.startsWith('workspace:')) continue;
      const at = installed(name, from);
      if (!at) throw new Error(`${name} (a dependency of ${read(from).name}) is not installed`);
      const manifest = read(at);
      const key = `${manifest.name}@${manifest.version}`;
      if (found.has(key)) continue;
      found.set(key, manifest.engines?.node);
      visit(at);
    }
  };
  visit(dir);
  return found;
}

describe.each(PUBLISHED)('@profile-articles/%s', (name) => {
  const dir = join(root, 'packages', name);
  const promised = read(dir).engines?.node ?? '*';

  it('promises Node 20', () => {
    expect(semver.satisfies('20.0.0', promised)).toBe(true);
  });

  it('installs no dependency that refuses a Node its engines accept', () => {
    const refusing = [...runtimeTree(dir)]
      .filter(([, node]) => node !== undefined && !semver.subset(promised, node))
      .map(([pkg, node]) => `${pkg} needs node ${node}`);
    expect(refusing).toEqual([]);
  });
});
