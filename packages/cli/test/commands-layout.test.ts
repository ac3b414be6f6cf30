// commands/ holds commands only: a helper two commands share lives outside it (job-wait.ts,
// show-article.ts, charge-note.ts), so no command module imports another.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../src/commands/', import.meta.url));

it('no command module imports another', () => {
  const imports = readdirSync(dir).flatMap((file) =>
    [...readFileSync(`${dir}${file}`, 'utf8').matchAll(/from '(\.\/[^']+)'/g)].map(
      (m) => `${file} -> ${m[1]}`,
    ),
  );
  expect(imports).toEqual([]);
});
