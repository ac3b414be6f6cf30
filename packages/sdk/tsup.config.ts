import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', schemas: 'src/schemas/index.ts', internal: 'src/internal.ts' },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { composite: false } },
  tsconfig: 'tsconfig.json',
  target: 'es2022',
  platform: 'neutral',
  clean: true,
  sourcemap: false,
  // ky is ESM-only and tiny: bundling it gives CommonJS users a working require()
  // and lets us measure the SDK's real size. zod stays a peer-visible dependency.
  noExternal: ['ky'],
  external: ['zod', 'zod/mini', 'zod/v4/core'],
});
