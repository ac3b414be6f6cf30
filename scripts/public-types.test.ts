// Every type a public signature of the three packages reaches is exported by a public entry:
// otherwise a user's project that compiles with `declaration: true` cannot name what it
// infers from that signature (TS2883 / TS2742, "cannot be named without a reference to ...").
// This walks the built declarations (dist/, which `pnpm test` builds first) from each public
// entry's exports through every type they mention, with the TypeScript compiler itself.
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterEach, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The entries users may import: not `/internal` or `/flags`, which may change in any release. */
const PUBLIC_ENTRIES = [
  'packages/sdk/dist/index.d.ts',
  'packages/sdk/dist/schemas.d.ts',
  'packages/mock-server/dist/index.d.ts',
  'packages/mock-server/dist/msw.d.ts',
  'packages/cli/dist/index.d.ts',
].map((file) => join(root, file));
const DISTS = ['sdk', 'mock-server', 'cli'].map((name) => `${join(root, 'packages', name, 'dist')}${sep}`);

/** The named types a public entry's exports mention, directly or through each other, that no public entry exports. */
function unexportedReachableTypes(): string[] {
  const program = ts.createProgram(PUBLIC_ENTRIES, {
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const resolve = (symbol: ts.Symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const ours = (declaration: ts.Declaration) => {
    const file = realpathSync(declaration.getSourceFile().fileName);
    return DISTS.some((dist) => file.startsWith(dist));
  };
  const exported = new Set<ts.Symbol>();
  const queue: ts.Symbol[] = [];
  for (const entry of PUBLIC_ENTRIES) {
    const file = program.getSourceFile(entry);
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    if (!moduleSymbol) throw new Error(`${entry} is missing: run pnpm build first`);
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = resolve(symbol);
      exported.add(target);
      queue.push(target);
    }
  }
  const missing = new Map<string, string>();
  const seen = new Set<ts.Symbol>();
  const visitNode = (node: ts.Node, from: string, hidden: boolean) => {
    // A class that is only the base of an exported interface (the SDK's resources) is never
    // constructed by users nor named in their declarations: its members are, its constructor not.
    if (hidden && ts.isConstructorDeclaration(node)) return;
    const heritage = ts.isExpressionWithTypeArguments(node) && ts.isHeritageClause(node.parent);
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node) || ts.isTypeQueryNode(node)) {
      const name = ts.isTypeReferenceNode(node)
        ? node.typeName
        : ts.isTypeQueryNode(node)
          ? node.exprName
          : node.expression;
      const symbol = checker.getSymbolAtLocation(name);
      if (symbol) {
        const target = resolve(symbol);
        const declarations = target.declarations ?? [];
        const named = declarations.some(
          (d) =>
            ts.isInterfaceDeclaration(d) ||
            ts.isTypeAliasDeclaration(d) ||
            ts.isClassDeclaration(d) ||
            ts.isEnumDeclaration(d),
        );
        if (named && declarations.some(ours)) {
          const where = declarations[0]?.getSourceFile().fileName.slice(root.length) ?? '';
          if (!exported.has(target) && !heritage) missing.set(`${target.name} in ${where}`, from);
          queue.push(target);
        }
      }
    }
    ts.forEachChild(node, (child) => visitNode(child, from, hidden));
  };
  while (queue.length) {
    const symbol = queue.pop() as ts.Symbol;
    if (seen.has(symbol)) continue;
    seen.add(symbol);
    for (const declaration of symbol.declarations ?? [])
      if (ours(declaration)) visitNode(declaration, symbol.name, !exported.has(symbol));
  }
  return [...missing].map(([name, from]) => `${name} (reached from ${from})`).sort();
}

it('every type a public signature reaches is exported by a public entry', () => {
  expect(unexportedReachableTypes()).toEqual([]);
}, 120_000);

/** A full tsc run: seconds on an idle machine, a minute or more on a loaded one; the limit is for a hang. */
const TSC_LIMIT_MS = 240_000;
let consumer: string | undefined;
afterEach(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
  consumer = undefined;
});

// Outside the repository, reaching the packages through node_modules as installed dependencies:
// only there does a type no entry exports fail to be named.
it(
  "a user's project with declaration: true names every type it infers from the packages",
  async () => {
    consumer = mkdtempSync(join(tmpdir(), 'public-types-'));
    const scope = join(consumer, 'node_modules/@profile-articles');
    mkdirSync(scope, { recursive: true });
    for (const name of ['sdk', 'mock-server', 'cli'])
      symlinkSync(join(root, 'packages', name), join(scope, name), 'dir');
    // The packages' own dependencies (msw, zod, @types/node) resolve from the repository's.
    symlinkSync(
      join(root, 'packages/mock-server/node_modules/msw'),
      join(consumer, 'node_modules/msw'),
      'dir',
    );
    mkdirSync(join(consumer, 'node_modules/@types'));
    symlinkSync(join(root, 'node_modules/@types/node'), join(consumer, 'node_modules/@types/node'), 'dir');
    copyFileSync(
      fileURLToPath(new URL('./public-types/consumer.ts', import.meta.url)),
      join(consumer, 'index.ts'),
    );
    const base = join(root, 'tsconfig.base.json');
    const compilerOptions = { declaration: true, emitDeclarationOnly: true, outDir: 'out' };
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ extends: base, compilerOptions, files: ['index.ts'] }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = await promisify(execFile)(process.execPath, [
      tsc,
      '-p',
      join(consumer, 'tsconfig.json'),
    ]).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(result).toBe('');
    const emitted = readFileSync(join(consumer, 'out/index.d.ts'), 'utf8');
    expect(emitted).toContain('import("@profile-articles/mock-server").RequestLogEntry');
    expect(emitted).toContain('import("@profile-articles/mock-server").MockState');
    expect(emitted).not.toMatch(/dist\//);
  },
  TSC_LIMIT_MS,
);
