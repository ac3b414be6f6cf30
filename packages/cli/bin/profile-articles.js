#!/usr/bin/env node
// A committed shim, so the bin exists at install time in the workspace; the code is built.
import('../dist/bin.js').catch((error) => {
  // From a clone, before `pnpm build`: say so instead of a module-resolution stack trace.
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bin.js')) {
    process.stderr.write(
      'Error: profile-articles is not built yet.\nRun `pnpm build` in the repository first.\n',
    );
    process.exit(1);
  }
  throw error;
});
