import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      msw: 'src/msw.ts',
      internal: 'src/internal.ts',
      flags: 'src/flags.ts',
      files: 'src/files.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    target: 'node20',
    platform: 'node',
    clean: true,
  },
  {
    entry: { bin: 'src/bin.ts' },
    // Everything bundled but `selfsigned` (--tls only), whose CommonJS requires node:crypto:
    // an ES module bundle cannot require, so it is imported from the package's dependencies.
    noExternal: [/^(?!selfsigned$)/],
    format: ['esm'],
    target: 'node20',
    platform: 'node',
  },
]);
