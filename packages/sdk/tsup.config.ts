import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

/**
 * esbuild's code splitting imports, from an entry or a lazily imported chunk, every chunk its
 * modules depend on, with a bare `import "./chunk-X.js";` where it uses no binding of it. A
 * customer's bundler that honours the package's `sideEffects: false` (esbuild, as Wrangler and
 * Vite run it) ignores such an import of a chunk with code in it, and warns, once per import.
 * Each one dropped here is of a chunk that the file's other imports already reach, so it is
 * still evaluated before the file, as before (scripts/sdk-lazy-chunks.test.ts bundles the
 * result without a warning).
 */
function dropRedundantBareImports(dist: URL): void {
  const files = readdirSync(dist).filter((file) => file.endsWith('.js'));
  const text = new Map(files.map((file) => [file, readFileSync(new URL(file, dist), 'utf8')]));
  const statics = (source: string) =>
    [...source.matchAll(/^(?:import\s[^;]*?\sfrom\s|import\s)"\.\/([\w-]+\.js)";$/gms)].map(
      (m) => m[1] as string,
    );
  const reaches = (from: readonly string[], target: string) => {
    const seen = new Set<string>();
    const visit = (file: string): boolean => {
      if (file === target) return true;
      if (seen.has(file)) return false;
      seen.add(file);
      return statics(text.get(file) ?? '').some(visit);
    };
    return from.some(visit);
  };
  for (const file of files) {
    let source = text.get(file) as string;
    for (const [line, target] of source.matchAll(/^import "\.\/([\w-]+\.js)";\n/gm)) {
      const others = statics(source.replace(line, ''));
      if (reaches(others, target as string)) source = source.replace(line, '');
    }
    if (source !== text.get(file)) {
      text.set(file, source);
      writeFileSync(new URL(file, dist), source);
    }
  }
}

const shared: Options = {
  format: ['esm', 'cjs'],
  tsconfig: 'tsconfig.json',
  target: 'es2022',
  platform: 'neutral',
  // Keep `node:http` as written: the Node entry's imports are Node's built-ins by their full name.
  removeNodeProtocol: false,
  sourcemap: false,
};

export default defineConfig([
  {
    ...shared,
    // node: the Node entry (the `node` export condition), whose client defaults to node:http.
    // Its types are the neutral entry's (package.json points both at index.d.ts), so no .d.ts.
    entry: {
      index: 'src/index.ts',
      node: 'src/node.ts',
      schemas: 'src/schemas/index.ts',
      internal: 'src/internal.ts',
    },
    // terminal's types too: a second config's .d.ts would race this one's `clean`, which removes
    // every .d.ts in dist when its own are written.
    dts: {
      entry: {
        index: 'src/index.ts',
        schemas: 'src/schemas/index.ts',
        internal: 'src/internal.ts',
        terminal: 'src/terminal.ts',
      },
      compilerOptions: { composite: false },
    },
    clean: true,
    onSuccess: async () => dropRedundantBareImports(new URL('./dist/', import.meta.url)),
    // zod stays a dependency users can see (its types are in the schemas' API).
    external: ['zod', 'zod/mini', 'zod/v4/core', /^node:/],
  },
  {
    ...shared,
    // ./internal/terminal, built on its own: one file that imports nothing, for a bin's start-up.
    // Built with the entries above, terminal-safe.ts (which the redactor also uses) became a
    // chunk of its own that every entry imported bare, and a bundler that honours the package's
    // `sideEffects: false` warned about each such import in a customer's build.
    entry: { terminal: 'src/terminal.ts' },
  },
]);
