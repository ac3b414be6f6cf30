// The SDK bundled with its dependencies (ky, zod/mini), minified and gzipped: goal < 20 KB.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const result = await build({
  stdin: {
    contents: "export { ProfileArticles, isJob } from './packages/sdk/dist/index.js';",
    resolveDir: new URL('..', import.meta.url).pathname,
  },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  write: false,
});
const bytes = gzipSync(result.outputFiles[0].contents).length;
const pass = bytes < 20 * 1024;
console.log(`${pass ? 'PASS' : 'FAIL'} SDK bundle: ${(bytes / 1024).toFixed(1)} KB gzipped (goal < 20 KB)`);
process.exitCode = pass ? 0 : 1;
