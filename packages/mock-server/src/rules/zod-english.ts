// zod/mini ships without messages to stay small; the mock is not size-bound, so its 422s and
// its config errors say what is wrong in English. outcome.ts and config.ts each call this: the
// bin may check a config file before it loads anything that answers requests. (A call, not an
// import for its effect: package.json's `sideEffects` lets the bundler drop a bare import.)
// Only that locale is imported: `z.locales.en` would pull every locale into the bundled bin
// (400 KB), which costs start-up time. (A named import: the CommonJS en.cjs replaces
// module.exports, so a default import breaks the CJS build.)
import * as z from 'zod/mini';
import { en } from 'zod/v4/locales';

export function useEnglishMessages(): void {
  z.config(en());
}
