import { cpSync, readFileSync, rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The bin is two builds (issue 11, goal 5: `--help` within 1.3× of `node -e 0`).
// - dist/bin.cjs: what every start runs (bin.ts, main.ts, program.ts and commander, bundled
//   in). CommonJS, because Node starts a CommonJS file with one synchronous read, where the
//   ESM loader resolves, fetches and links every module asynchronously: about a sixth of the
//   CPU `--help` took. Each `import('./…')` it makes stays a dynamic import of the build below.
// - dist/*.js: what those dynamic imports name (the commands, the Context, error reports,
//   completion), as ES modules with shared chunks; dependencies stay external and load
//   lazily per command. @napi-rs/keyring above all: a native addon (its prebuilt binary is an
//   optional dependency per platform, chosen by npm at install), imported only by
//   settings/keyring.ts, so it is never bundled and never loaded by a command that keeps no
//   key in the keyring.
const lazyModules = [
  ...new Set(
    ['main', 'program'].flatMap((file) =>
      [
        ...readFileSync(new URL(`./src/${file}.ts`, import.meta.url), 'utf8').matchAll(
          /import\('\.\/([\w/-]+)\.js'\)/g,
        ),
      ].map((m) => m[1] as string),
    ),
  ),
];

export default defineConfig([
  {
    entry: Object.fromEntries(lazyModules.map((name) => [name, `src/${name}.ts`])),
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    splitting: true,
    clean: true,
    // The durable write the mock's data folder uses too (node:fs only): bundled into the chunk
    // that writes settings or batch state, so no command loads the mock's package for it.
    noExternal: ['@profile-articles/mock-server/files'],
    // `profile-articles help <topic>` reads the guides from the package's guides/ folder: the
    // repository's docs/guides/, copied afresh so that a removed guide does not linger.
    onSuccess: async () => {
      const guides = new URL('./guides/', import.meta.url);
      rmSync(guides, { recursive: true, force: true });
      cpSync(new URL('../../docs/guides/', import.meta.url), guides, { recursive: true });
    },
  },
  {
    entry: { bin: 'src/bin.ts' },
    format: ['cjs'],
    target: 'node20',
    platform: 'node',
    // The mock's flag declarations and the SDK's terminalSafe (which every write crosses,
    // terminal-io.ts) import nothing: bundled, they cost no module load.
    noExternal: [
      'commander',
      '@profile-articles/mock-server/flags',
      '@profile-articles/sdk/internal/terminal',
    ],
    esbuildPlugins: [
      {
        name: 'lazy-modules-stay-dynamic-imports',
        setup(build) {
          build.onResolve({ filter: /^\.\// }, (args) =>
            args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
          );
        },
      },
    ],
  },
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    target: 'node20',
    platform: 'node',
    // Bundled here as in the bin, so commander is a devDependency: npm does not install it for
    // a customer, whose Node 20 commander 15 (engines >=22.12) would warn about.
    noExternal: ['commander', '@profile-articles/mock-server/files'],
    // `help <topic>` finds the guides from import.meta.url, which CommonJS has not: the shim
    // gives it this file's URL (without it, run() from require() failed with "Invalid URL").
    shims: true,
  },
]);
