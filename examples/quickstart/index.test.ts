// The README's quick start runs as written (against the built packages: build first).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('runs and prints the article and the balance', () => {
  const script = fileURLToPath(new URL('./index.mjs', import.meta.url));
  const output = execFileSync(process.execPath, [script], { encoding: 'utf8' });
  expect(output).toMatch(/^Ada Lovelace: version 1, \d sources\n900 credits left\n$/);
});
