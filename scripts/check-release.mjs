// pnpm check:release: proves the release flow works before anyone needs it.
// 1. `changeset status` parses every pending changeset in the repository.
// 2. In a scratch copy (so CI never consumes the changesets), `changeset version` bumps the
//    three packages and writes their CHANGELOG.md, the build passes on the bumped tree, and
//    `pnpm -r publish --dry-run` packs every package as the registry would receive it.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const packages = ['sdk', 'mock-server', 'cli'];

function run(command, args, cwd) {
  process.stdout.write(`$ ${command} ${args.join(' ')}   (in ${cwd === root ? '.' : cwd})\n`);
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function fail(message) {
  process.stderr.write(`check-release: ${message}\n`);
  process.exit(1);
}

const version = (dir, name) =>
  JSON.parse(readFileSync(join(dir, 'packages', name, 'package.json'), 'utf8')).version;

// `changeset status` compares HEAD with the base branch (main, .changeset/config.json). A clone
// of another branch has it only as origin/main, and a plain `status` failed there, with
// changesets 2 as with 3: "Failed to find where HEAD diverged from main".
const hasMain = (() => {
  try {
    run('git', ['rev-parse', '--verify', '--quiet', 'main'], root);
    return true;
  } catch {
    return false;
  }
})();
try {
  run('pnpm', ['exec', 'changeset', 'status', ...(hasMain ? [] : ['--since=origin/main'])], root);
} catch (error) {
  fail(`changeset status failed:\n${error.stdout}${error.stderr}`);
}

// The files git knows about (tracked, or new and not ignored): what a clean clone has, plus
// whatever is being worked on, without node_modules or build output.
const scratch = mkdtempSync(join(tmpdir(), 'profile-articles-release-'));
const files = run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], root)
  .split('\0')
  .filter((file) => file && existsSync(join(root, file)));
for (const file of files) {
  mkdirSync(dirname(join(scratch, file)), { recursive: true });
  cpSync(join(root, file), join(scratch, file));
}

try {
  const before = Object.fromEntries(packages.map((name) => [name, version(scratch, name)]));
  run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--silent'], scratch);
  run('pnpm', ['exec', 'changeset', 'version'], scratch);
  for (const name of packages) {
    const after = version(scratch, name);
    if (after === before[name]) fail(`changeset version did not bump ${name} (still ${after})`);
    const changelog = join(scratch, 'packages', name, 'CHANGELOG.md');
    if (!existsSync(changelog) || !readFileSync(changelog, 'utf8').includes(`## ${after}`))
      fail(`changeset version wrote no "## ${after}" entry in packages/${name}/CHANGELOG.md`);
    process.stdout.write(`${name}: ${before[name]} -> ${after}, CHANGELOG.md written\n`);
  }
  run('pnpm', ['build'], scratch);
  const published = run(
    'pnpm',
    ['-r', '--filter', './packages/**', 'publish', '--dry-run', '--no-git-checks'],
    scratch,
  );
  for (const name of packages) {
    const tag = `@profile-articles/${name}@${version(scratch, name)}`;
    if (!published.includes(tag)) fail(`publish --dry-run did not pack ${tag}:\n${published}`);
  }
  process.stdout.write('release flow: ok\n');
} catch (error) {
  fail(`${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
