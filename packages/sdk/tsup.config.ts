import { defineConfig } from 'tsup';

export default defineConfig({
  // node: the Node entry (the `node` export condition), whose client defaults to node:http.
  // Its types are the neutral entry's (package.json points both at index.d.ts), so no .d.ts.
  entry: {
    index: 'src/index.ts',
    node: 'src/node.ts',
    schemas: 'src/schemas/index.ts',
    internal: 'src/internal.ts',
  },
  format: ['esm', 'cjs'],
  dts: {
    entry: { index: 'src/index.ts', schemas: 'src/schemas/index.ts', internal: 'src/internal.ts' },
    compilerOptions: { composite: false },
  },
  tsconfig: 'tsconfig.json',
  target: 'es2022',
  platform: 'neutral',
  clean: true,
  // Keep `node:http` as written: the Node entry's imports are Node's built-ins by their full name.
  removeNodeProtocol: false,
  sourcemap: false,
  // ky is ESM-only and tiny: bundling it gives CommonJS users a working require()
  // and lets us measure the SDK's real size. zod stays a peer-visible dependency.
  noExternal: ['ky'],
  external: ['zod', 'zod/mini', 'zod/v4/core', /^node:/],
});
