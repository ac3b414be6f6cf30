// This repository's check that the example also passes on msw 2 (the mock's handlers take msw 2
// and 3): the same tests, with `msw` resolved to msw 2 (the `msw2` alias package). A project of
// your own needs neither this file nor that package.
import { createRequire } from 'node:module';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

const resolve = createRequire(import.meta.url).resolve;

export default mergeConfig(
  base,
  defineConfig({
    resolve: {
      alias: [
        { find: /^msw$/, replacement: resolve('msw2') },
        { find: /^msw\/node$/, replacement: resolve('msw2/node') },
      ],
    },
    test: { name: 'msw 2' },
  }),
);
