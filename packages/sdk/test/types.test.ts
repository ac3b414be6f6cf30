// The type tests: tsc over the fixtures in types/, which import `@profile-articles/sdk` as a
// customer does, so they check the built declarations (dist/, which `pnpm test` builds first)
// rather than the source. `pnpm test` fails when a public type
// loosens (a status no longer literal, a field no longer readonly).
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const project = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url));

it('the public types hold: exact responses, literal error statuses, readonly fields, narrowing guards', async () => {
  const result = await promisify(execFile)(process.execPath, [tsc, '-p', project]).then(
    () => ({ code: 0, output: '' }),
    (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
  );
  expect(result.output).toBe('');
  expect(result.code).toBe(0);
}, 60_000);
