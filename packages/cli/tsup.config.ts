import { defineConfig } from 'tsup';

// Our own code is bundled; dependencies stay external and load lazily per command.
// ESM splitting turns each command's dynamic import into its own chunk.
export default defineConfig([
  {
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    splitting: true,
    clean: true,
  },
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    target: 'node20',
    platform: 'node',
  },
]);
