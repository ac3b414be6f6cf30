import { defineConfig, type Options } from 'tsup';

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
