// This example's own tests, against the built packages as a customer's project would use them
// (without this file vitest would pick up the repository's config, which maps them to source).
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { testTimeout: 20_000 } });
