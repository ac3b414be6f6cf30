// The documented examples run as written (they use the built packages: `pnpm test` builds first).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('examples/quickstart runs and prints the article and the balance', () => {
  const script = fileURLToPath(new URL('../examples/quickstart/index.mjs', import.meta.url));
  const output = execFileSync(process.execPath, [script], { encoding: 'utf8' });
  expect(output).toMatch(/^Ada Lovelace: version 1, \d sources\n900 credits left\n$/);
});
