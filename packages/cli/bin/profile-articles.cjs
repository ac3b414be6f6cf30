#!/usr/bin/env node
// A committed shim, so the bin exists at install time in the workspace; the code is built.
// CommonJS like dist/bin.cjs: a require is the cheapest start there is (docs/performance.md).
const path = require('node:path');

const built = path.join(__dirname, '../dist/bin.cjs');
try {
  require.resolve(built);
} catch {
  // From a clone, before `pnpm build`: say so instead of a module-resolution stack trace.
  process.stderr.write(
    'Error: profile-articles is not built yet.\nRun `pnpm build` in the repository first.\n',
  );
  process.exit(1);
}
require(built);
