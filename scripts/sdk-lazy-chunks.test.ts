// What an import of the SDK loads, and what it leaves to a lazily imported chunk: the code that
// turns a non-2xx answer into its typed error (and, as they land, the other rarely needed paths)
// is in the ES module build's chunks reached only by `import()`, so `bench/sdk-size.mjs` counts
// it apart from the entry. And a customer's bundler that honours the package's
// `sideEffects: false` (esbuild, as Wrangler and Vite run it) builds the SDK without a warning:
// a bare `import "./chunk.js"` of a chunk with code in it warned once per such import. Reads the
// built packages: run `pnpm build` first.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = new URL('../packages/sdk/dist/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, dist), 'utf8');

/** The file and every chunk it imports statically (`import … from "./chunk.js"`), by name. */
function eagerFiles(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, next] of read(file).matchAll(/^import\s[^;]*?"\.\/([\w-]+\.js)";?$/gms))
    eagerFiles(next!, seen);
  return seen;
}

describe('the SDK’s lazily imported chunks', () => {
  it.each(['index.js', 'node.js'])('%s loads no error-answer code until an answer needs it', (entry) => {
    const eager = [...eagerFiles(entry)];
    const sources = eager.flatMap((file) => [...read(file).matchAll(/^\/\/ (src\/\S+)$/gm)].map((m) => m[1]));
    expect(sources).toContain('src/transport/attempt.ts');
    for (const lazy of [
      'src/errors/error-from-answer.ts',
      'src/retry/retry-after.ts',
      'src/transport/answer-error.ts',
    ]) {
      expect(sources, `${lazy} in what ${entry} loads`).not.toContain(lazy);
    }
    // …and reaches it by import().
    const all = eager.map(read).join('\n');
    expect(all).toMatch(/import\("\.\/answer-error-[\w-]+\.js"\)/);
  });

  it.each([
    ['index.js', 'neutral'],
    ['node.js', 'node'],
  ] as const)('%s bundles with esbuild without a warning', async (entry, platform) => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL(entry, dist))],
      absWorkingDir: root,
      bundle: true,
      format: 'esm',
      platform,
      mainFields: ['module', 'main'],
      external: ['@opentelemetry/api'],
      write: false,
      logLevel: 'silent',
    });
    expect(result.warnings.map((w) => `${w.id}: ${w.text}`)).toEqual([]);
  });
});
