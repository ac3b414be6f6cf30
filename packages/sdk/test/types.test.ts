// The type tests: tsc over the fixtures in types/, which import `@profile-articles/sdk` as a
// customer does, so they check the built declarations (dist/, which `pnpm test` builds first)
// rather than the source. `pnpm test` fails when a public type
// loosens (a status no longer literal, a field no longer readonly).
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
/**
 * A full tsc run is CPU work: about 11 s on an idle 2-core machine, over 60 s on a loaded one
 * (a clean-clone CI run beside the team's sessions). The limit is there for a hang.
 */
const TSC_LIMIT_MS = 240_000;
const project = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));

function compile(tsconfig: string) {
  return promisify(execFile)(process.execPath, [tsc, '-p', tsconfig]).then(
    () => ({ code: 0, output: '' }),
    (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
  );
}

let consumer: string | undefined;
afterEach(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
  consumer = undefined;
});

it(
  'the public types hold: exact responses, literal error statuses, readonly fields, narrowing guards',
  async () => {
    const result = await compile(project);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  },
  TSC_LIMIT_MS,
);

// A project outside this package, which reaches it through node_modules as an installed
// dependency: only there does a type the entry does not export fail to be named (TS2742).
it(
  "a customer's declarations name the inferred resource types through the package",
  async () => {
    consumer = mkdtempSync(join(tmpdir(), 'sdk-consumer-'));
    mkdirSync(join(consumer, 'node_modules/@profile-articles'), { recursive: true });
    symlinkSync(packageDir, join(consumer, 'node_modules/@profile-articles/sdk'), 'dir');
    copyFileSync(
      fileURLToPath(new URL('./types/consumer/index.ts', import.meta.url)),
      join(consumer, 'index.ts'),
    );
    const base = fileURLToPath(new URL('../../../tsconfig.base.json', import.meta.url));
    const compilerOptions = { declaration: true, emitDeclarationOnly: true, outDir: 'out', types: [] };
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ extends: base, compilerOptions, files: ['index.ts'] }),
    );
    const result = await compile(join(consumer, 'tsconfig.json'));
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
    // Every type in the emitted declarations comes from the package's public entry.
    const emitted = readFileSync(join(consumer, 'out/index.d.ts'), 'utf8');
    expect(emitted).toContain('import("@profile-articles/sdk").Articles');
    expect(emitted).not.toMatch(/dist\//);
  },
  TSC_LIMIT_MS,
);
