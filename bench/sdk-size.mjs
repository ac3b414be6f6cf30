// Goal 6: the SDK's ESM entry bundled with its dependencies (ky, zod/mini), minified and
// gzipped, at most 3 KB over the 19.9 KB it was when issue 25 was filed (it was 15 KB before). For reference, ky alone and the schemas with zod/mini are bundled the
// same way: together they are the floor under the client's own code.
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
const KY = "export { default } from './packages/sdk/node_modules/ky/distribution/index.js';";
const SCHEMAS = "export * from './packages/sdk/dist/schemas.js';";
const sdk = await gzipped("export * from './packages/sdk/dist/index.js';");
const ky = await gzipped(KY);
const schemas = await gzipped(SCHEMAS);
// The floor the client's own code sits on: the HTTP layer and the schemas with zod's runtime.
const floor = await gzipped(`${KY}\n${SCHEMAS}`);
console.log(
  `SDK entry ${sdk.toFixed(1)} KB gzipped; ky alone ${ky.toFixed(1)} KB; the schemas with zod/mini ${schemas.toFixed(1)} KB; both ${floor.toFixed(1)} KB`,
);
publish('sdk-size', [
  row({ figure: 'SDK ESM entry, min+gzip, vs 22.9 KB', measured: sdk, baseline: 22.9, unit: 'KB', goal: 1 }),
  row({
    figure: '(reference) ky + the schemas with zod, vs 15 KB',
    measured: floor,
    baseline: 15,
    unit: 'KB',
    goal: 1,
  }),
]);
