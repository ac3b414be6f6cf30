// The type test: compiles public-types.fixture.ts with the repository's compiler settings
// and expects no diagnostic. The fixture's `@ts-expect-error` lines prove what must not compile.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./public-types.fixture.ts', import.meta.url));

function diagnostics(file: string): string[] {
  const configPath = `${root}tsconfig.json`;
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const program = ts.createProgram([file], { ...options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

it('the public types are exact: the fixture compiles, and every @ts-expect-error in it is an error', () => {
  expect(diagnostics(fixture)).toEqual([]);
}, 60_000);
