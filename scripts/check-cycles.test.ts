// `pnpm check:cycles` (dependency-cruiser with the root's .dependency-cruiser.cjs) fails on an
// import circle, a type-only one included, and on a room that imports a room above it, naming the
// files. Proved on a temporary copy of the config over made-up sources, never the real tree.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A scratch repository holding the config, the plan and these sources; runs check:cycles there. */
function cruise(sources: Record<string, string>): { status: number | null; output: string } {
  const folder = mkdtempSync(join(tmpdir(), 'check-cycles-'));
  folders.push(folder);
  cpSync(join(root, '.dependency-cruiser.cjs'), join(folder, '.dependency-cruiser.cjs'));
  mkdirSync(join(folder, 'scripts', 'layout'), { recursive: true });
  cpSync(join(root, 'scripts', 'layout', 'moves.json'), join(folder, 'scripts', 'layout', 'moves.json'));
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }),
  );
  const all = {
    'packages/sdk/src/index.ts': 'export {};\n',
    'packages/cli/src/index.ts': 'export {};\n',
    'packages/mock-server/src/index.ts': 'export {};\n',
    ...sources,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  const run = spawnSync(
    depcruise,
    [
      'packages/sdk/src',
      'packages/cli/src',
      'packages/mock-server/src',
      '--config',
      '.dependency-cruiser.cjs',
    ],
    { cwd: folder, encoding: 'utf8' },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('pnpm check:cycles', () => {
  it('passes sources without a circle whose rooms import only the rooms below them', () => {
    const run = cruise({
      'packages/sdk/src/index.ts': "export { ask } from './core/ask.js';\n",
      'packages/sdk/src/core/ask.ts':
        "import type { Shape } from '../errors/shape.js';\nexport const ask = (s: Shape) => s;\n",
      'packages/sdk/src/errors/shape.ts': 'export interface Shape { a: number }\n',
    });
    expect(run.output).toContain('no dependency violations');
    expect(run.status).toBe(0);
  });

  it('fails on a circle of type-only imports, naming its files', () => {
    const run = cruise({
      'packages/sdk/src/index.ts': "export type { A } from './core/a.js';\n",
      'packages/sdk/src/core/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
      'packages/sdk/src/core/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
    });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('no-circular');
    expect(run.output).toContain('packages/sdk/src/core/a.ts');
    expect(run.output).toContain('packages/sdk/src/core/b.ts');
  });

  it('fails on a circle of runtime imports across rooms', () => {
    const run = cruise({
      'packages/cli/src/index.ts': "export { one } from './terminal/one.js';\n",
      'packages/cli/src/terminal/one.ts':
        "import { two } from '../settings/two.js';\nexport const one = () => two;\n",
      'packages/cli/src/settings/two.ts':
        "import { one } from '../terminal/one.js';\nexport const two = () => one;\n",
    });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('no-circular');
    expect(run.output).toContain('packages/cli/src/settings/two.ts');
  });

  it('fails on a room that imports a room above it, a type-only import included', () => {
    const run = cruise({
      'packages/sdk/src/index.ts': "export type { Price } from './schemas/price.js';\n",
      'packages/sdk/src/schemas/price.ts':
        "import type { Options } from '../core/options.js';\nexport type Price = Options['n'];\n",
      'packages/sdk/src/core/options.ts': 'export interface Options { n: number }\n',
      'packages/mock-server/src/rules/clock.ts':
        "import type { Entry } from './money/ledger.js';\nexport type Clock = Entry;\n",
      'packages/mock-server/src/rules/money/ledger.ts': 'export interface Entry { at: number }\n',
    });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('layers:sdk:schemas');
    expect(run.output).toContain('packages/sdk/src/schemas/price.ts');
    expect(run.output).toContain('layers:mock-server:rules');
    expect(run.output).toContain('packages/mock-server/src/rules/clock.ts');
  });
});
