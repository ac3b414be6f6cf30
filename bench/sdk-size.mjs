// Goal 6: the SDK's ESM entry bundled with its dependencies (ky, zod/mini), minified and
// gzipped, under 15 KB. The baseline is ky alone bundled the same way (what our HTTP layer costs).
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { publish, row } from './lib/stats.mjs';

const root = new URL('..', import.meta.url).pathname;
async function gzipped(contents) {
  const result = await build({
    stdin: { contents, resolveDir: root },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
  });
  return gzipSync(result.outputFiles[0].contents).length / 1024;
}
const sdk = await gzipped("export * from './packages/sdk/dist/index.js';");
const ky = await gzipped("export { default } from './packages/sdk/node_modules/ky/distribution/index.js';");
console.log(`SDK entry ${sdk.toFixed(1)} KB gzipped; ky alone ${ky.toFixed(1)} KB`);
publish('sdk-size', [
  row({ figure: 'SDK ESM entry, min+gzip, vs 15 KB', measured: sdk, baseline: 15, unit: 'KB', goal: 1 }),
]);
