#!/usr/bin/env node
// Issue 32's layout, applied to whatever commit is checked out: every file that moves.json
// names goes to its room by `git mv` (its unit test `x.test.ts` with it), and every relative
// specifier that named a moved file, or that a moved file wrote, is rewritten, in the sources,
// the tests, packages/test-utils, scripts/, bench/, the tsup and vitest configs, knip.json,
// typedoc.json and the packages' package.json. Paths in the Markdown and in comments that name
// a moved file are rewritten where the match is a whole repository path, and reported otherwise.
//
//   pnpm exec node scripts/layout/apply.mjs            # moves and rewrites, staged; prints the report
//   pnpm exec node scripts/layout/apply.mjs --check    # only checks the plan against the tree
//   pnpm exec node scripts/layout/apply.mjs --commit   # one commit per package
//
// On main it ran once (67bfaee, 27e05a9, 2cc141b), and CONTRIBUTING.md's Layout was written from a
// draft kept beside it until then; what it still does is say where an old branch's file now lives.
// packages/*/api.md is not regenerated: `pnpm build && pnpm api:report` after it (chunk names move).
//
// It refuses a tree with changes, a file under a package's src/ that the plan does not place
// (named, for the integrator to place), a room over 15 source files, and a second run (it says
// the layout is already applied and changes nothing).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const here = dirname(fileURLToPath(import.meta.url));
const plan = JSON.parse(readFileSync(join(here, 'moves.json'), 'utf8'));
const args = new Set(process.argv.slice(2));
const MAX_PER_FOLDER = 15;

const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8' });
const fail = (message) => {
  console.error(`layout: ${message}`);
  process.exit(1);
};
const tracked = () =>
  git('ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter(Boolean);

// --- the plan against the tree ---------------------------------------------------------------

/** Repository path → repository path, for one package; tests go with their source. */
function movesOf(pkg, spec, files) {
  const src = files
    .filter((f) => f.startsWith(`${pkg}/`) && f.endsWith('.ts'))
    .map((f) => f.slice(pkg.length + 1));
  const kept = (f) => spec.root.includes(f) || spec.keepFolders.some((k) => f === k || f.startsWith(`${k}/`));
  const moves = new Map();
  const unplaced = [];
  const done = [];
  for (const f of src) {
    const source = f.replace(/\.test\.ts$/, '.ts');
    const to = spec.moves[source];
    if (to === source) continue; // placed where it is
    if (to !== undefined) {
      moves.set(`${pkg}/${f}`, `${pkg}/${f === source ? to : to.replace(/\.ts$/, '.test.ts')}`);
    } else if (Object.entries(spec.moves).some(([from, dest]) => dest === source && from !== source)) {
      done.push(f);
    } else if (!kept(source)) {
      unplaced.push(`${pkg}/${f}`);
    }
  }
  return { moves, unplaced, done, src };
}

function checkPlan() {
  const files = tracked();
  const all = new Map();
  const unplaced = [];
  let applied = 0;
  let pending = 0;
  const perPackage = [];
  for (const [pkg, spec] of Object.entries(plan.packages)) {
    const { moves, unplaced: u, done } = movesOf(pkg, spec, files);
    unplaced.push(...u.filter((f) => !done.includes(f.slice(pkg.length + 1))));
    applied += done.length;
    pending += moves.size;
    for (const [from, to] of moves) all.set(from, to);
    perPackage.push([pkg, moves]);
  }
  return { all, unplaced, applied, pending, perPackage, files };
}

function folderCounts(files, all) {
  const counts = new Map();
  for (const f of files) {
    if (!/^packages\/(sdk|cli|mock-server)\/src\//.test(f) || !f.endsWith('.ts') || f.endsWith('.test.ts'))
      continue;
    const dir = posix.dirname(all.get(f) ?? f);
    counts.set(dir, (counts.get(dir) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n > MAX_PER_FOLDER);
}

// --- rewriting -------------------------------------------------------------------------------

const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const SCOPE = (f) =>
  (/^packages\/[^/]+\/(src|test)\//.test(f) && CODE.test(f)) ||
  /^packages\/test-utils\//.test(f) ||
  (/^(scripts|bench)\//.test(f) &&
    !f.startsWith('scripts/layout/') &&
    (CODE.test(f) || f.endsWith('.json'))) ||
  /^packages\/[^/]+\/(tsup\.config\.ts|package\.json|tsconfig\.json)$/.test(f) ||
  /^(vitest\.config\.ts|knip\.json|typedoc\.json|tsconfig(\.[\w-]+)?\.json|package\.json|\.dependency-cruiser\.cjs)$/.test(
    f,
  );
const DOCS = (f) =>
  /^(docs\/.*\.md|CONTRIBUTING\.md|README\.md|packages\/[^/]+\/README\.md|examples\/[^/]+\/README\.md)$/.test(
    f,
  );

/** The repository path a relative specifier names, if it is a file or folder of the tree. */
function resolveSpecifier(fromFile, spec, exists) {
  const base = posix.normalize(posix.join(posix.dirname(fromFile), spec));
  const tries = [base];
  if (/\.(js|mjs|cjs)$/.test(base)) tries.push(base.replace(/\.(m|c)?js$/, '.$1ts'));
  if (!/\.\w+$/.test(base)) tries.push(`${base}.ts`, `${base}/index.ts`);
  return tries.find(exists);
}

function relativeSpecifier(fromFile, target, original) {
  let spec = posix.relative(posix.dirname(fromFile), target);
  if (!spec.startsWith('.')) spec = `./${spec}`;
  // Keep the spelling the author chose: `.js` for a `.ts`, no extension, or `/index` left out.
  if (/\.js$/.test(original) && spec.endsWith('.ts')) spec = spec.replace(/\.ts$/, '.js');
  else if (!/\.\w+$/.test(original) && spec.endsWith('/index.ts') && !original.endsWith('index'))
    spec = spec.slice(0, -'/index.ts'.length);
  else if (!/\.\w+$/.test(original)) spec = spec.replace(/\.ts$/, '');
  if (original.endsWith('/') && !spec.endsWith('/')) spec += '/';
  return spec;
}

function rewriteCode(file, text, moves, exists, newPathOf) {
  const self = newPathOf(file);
  let changed = 0;
  const out = text.replace(/(['"`])(\.\.?\/[^'"`\s$]*)\1/g, (whole, quote, spec) => {
    const target = resolveSpecifier(file, spec.replace(/\/$/, ''), exists);
    if (target === undefined) return whole;
    const moved = newPathOf(target);
    if (moved === target && self === file) return whole;
    const next = relativeSpecifier(self, moved, spec);
    if (next === spec) return whole;
    changed++;
    return `${quote}${next}${quote}`;
  });
  const paths = rewritePaths(out, moves);
  return { text: paths.text, changed: changed + paths.changed };
}

/** Whole repository paths (`packages/sdk/src/retry.ts`, with .js or without extension too). */
function rewritePaths(text, moves) {
  let changed = 0;
  const out = text.replace(/packages\/(sdk|cli|mock-server)\/src\/[\w./-]*\w/g, (path) => {
    const m = /^(.*?)(\.ts|\.js)?$/.exec(path);
    const stem = m[1];
    const to = moves.get(`${stem}.ts`);
    if (to === undefined) return path;
    changed++;
    return m[2] === undefined ? to.replace(/\.ts$/, '') : to.replace(/\.ts$/, m[2]);
  });
  return { text: out, changed };
}

/** A tsup or package.json `src/x.ts` inside the package that holds it. */
function rewritePackageLocal(file, text, moves) {
  const pkg = file.split('/').slice(0, 2).join('/');
  let changed = 0;
  const out = text.replace(/(['"])(\.\/)?src\/([\w./-]+\.ts)\1/g, (whole, q, dot = '', rest) => {
    const to = moves.get(`${pkg}/src/${rest}`);
    if (to === undefined) return whole;
    changed++;
    return `${q}${dot}${relative(pkg, to)}${q}`;
  });
  return { text: out, changed };
}

function apply(moves, files) {
  const exists = (p) => {
    if (files.has(p)) return true;
    try {
      return statSync(join(root, p)).isDirectory();
    } catch {
      return false;
    }
  };
  const newPathOf = (p) => moves.get(p) ?? p;
  const rewritten = [];
  const pending = [];
  for (const file of files) {
    if (!SCOPE(file) || !existsSync(join(root, file))) continue;
    const text = readFileSync(join(root, file), 'utf8');
    let result = CODE.test(file)
      ? rewriteCode(file, text, moves, exists, newPathOf)
      : rewritePaths(text, moves);
    if (/^packages\/[^/]+\/(tsup\.config\.ts|package\.json)$/.test(file)) {
      const local = rewritePackageLocal(file, result.text, moves);
      result = { text: local.text, changed: result.changed + local.changed };
    }
    if (result.changed > 0 || moves.has(file)) pending.push([file, result.text, result.changed]);
  }
  for (const [from, to] of moves) {
    mkdirSync(dirname(join(root, to)), { recursive: true });
    git('mv', from, to);
  }
  const touched = [];
  for (const [file, text, changed] of pending) {
    writeFileSync(join(root, newPathOf(file)), text);
    if (changed > 0) rewritten.push(`${newPathOf(file)} (${changed})`);
    if (changed > 0 && /\.(ts|mts|cts|js|mjs|cjs|json)$/.test(file)) touched.push(newPathOf(file));
  }
  // A rewritten specifier may sort its import elsewhere, or make a line too long: Biome puts
  // both as `pnpm lint` wants them (it orders imports and wraps lines; no code changes).
  biomeWrite(touched);
  return rewritten;
}

/** Biome's order and format (imports sorted, lines wrapped, Markdown tables aligned): no code changes. */
function biomeWrite(paths) {
  if (paths.length === 0) return;
  const biome = join(root, 'node_modules', '.bin', 'biome');
  if (!existsSync(biome)) {
    console.warn(`layout: no node_modules/.bin/biome: run \`pnpm format\` over ${paths.join(' ')}`);
    return;
  }
  spawnSync(biome, ['check', '--write', '--no-errors-on-unmatched', ...paths], {
    cwd: root,
    stdio: 'ignore',
  });
}

/** Markdown: whole paths rewritten; a moved file's bare name (`retry.ts`) reported. */
function docsAndComments(moves, files) {
  const rewrittenDocs = [];
  const mentions = [];
  const names = new Map();
  for (const [from, to] of moves) {
    if (from.endsWith('.test.ts')) continue;
    names.set(posix.basename(from), [from, to]);
  }
  const namePattern = new RegExp(
    `(?<![\\w/.-])(${[...names.keys()].map((n) => n.replace(/[.]/g, '\\.')).join('|')})(?![\\w-])`,
    'g',
  );
  for (const file of files) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    const isDoc = DOCS(file);
    const isCode = /^packages\/(sdk|cli|mock-server)\/(src|test)\//.test(file) && CODE.test(file);
    if (!isDoc && !isCode) continue;
    let text = readFileSync(path, 'utf8');
    if (isDoc) {
      const r = rewritePaths(text, moves);
      if (r.changed > 0) {
        writeFileSync(path, r.text);
        biomeWrite([file]);
        git('add', file);
        rewrittenDocs.push(`${file} (${r.changed})`);
        text = r.text;
      }
    }
    if (names.size === 0) continue;
    text.split('\n').forEach((line, i) => {
      // In code, only comments: a string naming a file was resolved above.
      const scope = isCode ? (/(\/\/|\/\*|^\s*\*)(.*)$/.exec(line)?.[2] ?? '') : line;
      for (const m of scope.matchAll(namePattern)) {
        const [from, to] = names.get(m[1]);
        const pkgOf = (p) => p.split('/')[1];
        if (isCode && pkgOf(file) !== pkgOf(from)) continue;
        mentions.push(`${file}:${i + 1}: ${m[1]} (now ${to.replace(/^packages\/[^/]+\/src\//, '')})`);
      }
    });
  }
  return { rewrittenDocs, mentions };
}

// --- main ------------------------------------------------------------------------------------

const { all, unplaced, applied, pending, perPackage, files } = checkPlan();
if (unplaced.length > 0) {
  fail(
    `${unplaced.length} file(s) under a package's src/ that scripts/layout/moves.json does not place; ` +
      `add each to a room's "moves" (or to "root"/"keepFolders") and run again:\n  ${unplaced.join('\n  ')}`,
  );
}
if (pending === 0 && applied > 0) {
  console.log('layout: already applied (every file the plan moves is in its room); nothing to do.');
  process.exit(0);
}
if (applied > 0) {
  fail(
    `the layout is partly applied (${applied} file(s) already in their rooms, ${pending} not): reset the tree and run again`,
  );
}
const crowded = folderCounts(files, all);
if (crowded.length > 0)
  fail(
    `folders over ${MAX_PER_FOLDER} source files after the moves: ${crowded.map(([d, n]) => `${d} (${n})`).join(', ')}`,
  );
if (args.has('--check')) {
  console.log(`layout: the plan places every file; ${pending} file(s) would move.`);
  process.exit(0);
}
if (git('status', '--porcelain').trim() !== '')
  fail('the work tree has changes: commit or set them aside first');

const report = { moved: 0, rewritten: [], docs: [], mentions: [] };
// The lines of CONTRIBUTING.md that the draft replaces (below) need no report.
const layoutLines = (() => {
  const text = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
  const line = (at) => text.slice(0, at).split('\n').length;
  const a = text.indexOf('Where each source file of a package belongs');
  const b = text.indexOf('Unit tests sit next to the code');
  return a < 0 || b < a ? [0, -1] : [line(a), line(b) - 1];
})();
const replaced = (mention) => {
  const m = /^CONTRIBUTING\.md:(\d+):/.exec(mention);
  return m !== null && Number(m[1]) >= layoutLines[0] && Number(m[1]) <= layoutLines[1];
};
for (const [pkg, moves] of perPackage) {
  if (moves.size === 0) continue;
  const current = new Set(tracked());
  report.moved += moves.size;
  const rewritten = apply(moves, current);
  const { rewrittenDocs, mentions } = docsAndComments(moves, tracked());
  git('add', '-u');
  report.rewritten.push(...rewritten);
  report.docs.push(...rewrittenDocs);
  report.mentions.push(...mentions.filter((m) => !replaced(m)));
  const summary = git('diff', '--cached', '-M', '--summary');
  const notRenamed = [...moves.keys()].filter(
    (from) =>
      !summary.includes(posix.basename(from)) ||
      new RegExp(`delete mode \\d+ ${from.replace(/[.]/g, '\\.')}`).test(summary),
  );
  if (notRenamed.length > 0) {
    console.warn(
      `layout: git does not see these as renames (move them in a commit of their own):\n  ${notRenamed.join('\n  ')}`,
    );
  }
  if (args.has('--commit')) {
    const name = pkg.split('/')[1];
    git(
      'commit',
      '-q',
      '-m',
      `Layout, ${name}: src/ in rooms (scripts/layout/moves.json), imports rewritten; no code changed`,
    );
  }
}
console.log(
  `layout: ${report.moved} file(s) moved; specifiers rewritten in ${report.rewritten.length} file(s):`,
);
for (const r of report.rewritten) console.log(`  ${r}`);
if (report.docs.length > 0) {
  console.log('Markdown paths rewritten:');
  for (const r of report.docs) console.log(`  ${r}`);
}
if (report.mentions.length > 0) {
  console.log(
    `Mentions of a moved file by its bare name, in docs and comments (check each by hand, ${report.mentions.length}):`,
  );
  for (const r of report.mentions) console.log(`  ${r}`);
}
