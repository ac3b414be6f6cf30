// `pnpm demo`'s build: only the packages whose build is older than what it is made of. A full
// `pnpm build` (declarations included) took most of the demo's time on every run, with nothing
// changed. A package is stale when its dist/ is missing, or older than what its build reads (src/,
// package.json, tsup and TypeScript configs; for the CLI, docs/guides/ too) or than the dist/ of
// a workspace package it depends on (the CLI bundles parts of the SDK's and the mock's).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What a package's build reads, besides the dist/ of the packages it depends on. */
const INPUTS = ['src', 'package.json', 'tsup.config.ts', 'tsconfig.json'];

/** The modification times of the files under `path` (none if it does not exist), tests left out. */
function times(path) {
  if (!existsSync(path)) return [];
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return readdirSync(path)
    .filter((name) => !name.endsWith('.test.ts'))
    .flatMap((name) => times(join(path, name)));
}

/** The workspace's buildable packages, each after those it depends on, with whether each is stale. */
export function staleness(root) {
  const dirs = readdirSync(join(root, 'packages')).filter((name) =>
    existsSync(join(root, 'packages', name, 'package.json')),
  );
  const manifests = new Map(
    dirs.map((dir) => [dir, JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'))]),
  );
  const byName = new Map([...manifests].map(([dir, manifest]) => [manifest.name, dir]));
  const built = new Map();
  const order = [];
  const visit = (dir) => {
    if (built.has(dir)) return built.get(dir);
    const manifest = manifests.get(dir);
    const deps = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
      .map((name) => byName.get(name))
      .filter((dep) => dep && dep !== dir && manifests.get(dep).scripts?.build);
    const depResults = deps.map(visit);
    const folder = join(root, 'packages', dir);
    const dist = join(folder, 'dist');
    const inputs = [
      ...INPUTS.flatMap((name) => times(join(folder, name))),
      ...(dir === 'cli' ? times(join(root, 'docs', 'guides')) : []),
      ...depResults.map((dep) => dep.newestOutput),
    ];
    const outputs = times(dist);
    const result = {
      dir,
      stale: outputs.length === 0 || Math.max(...inputs) > Math.min(...outputs),
      newestOutput: outputs.length ? Math.max(...outputs) : Number.POSITIVE_INFINITY,
    };
    built.set(dir, result);
    order.push(result);
    return result;
  };
  for (const dir of dirs) if (manifests.get(dir).scripts?.build) visit(dir);
  return order;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  for (const { dir } of staleness(root)) {
    // Re-checked in order: a package rebuilt just now makes those that bundle it stale.
    const now = staleness(root).find((result) => result.dir === dir);
    if (!now?.stale) {
      process.stdout.write(`packages/${dir}: up to date\n`);
      continue;
    }
    process.stdout.write(`packages/${dir}: building\n`);
    execFileSync('pnpm', ['run', 'build'], { cwd: join(root, 'packages', dir), stdio: 'inherit' });
  }
}
