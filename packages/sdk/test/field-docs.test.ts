// Every field of every response and request interface carries its TSDoc from the interface
// contract, in the built declarations a customer's editor reads (hover shows it).
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { expect, it } from 'vitest';

const dist = new URL('../dist/', import.meta.url);

/** The schemas entry's declarations and the chunks it re-exports from (tsup splits them). */
function schemaDeclarations(): Array<[string, string]> {
  const entry = readFileSync(new URL('schemas.d.ts', dist), 'utf8');
  const chunks = [...entry.matchAll(/from '\.\/([^']+)\.js'/g)].map((match) => `${match[1]}.d.ts`);
  return ['schemas.d.ts', ...chunks].map((name) => [name, readFileSync(new URL(name, dist), 'utf8')]);
}

it('every field of the exported interfaces has TSDoc in the built declarations', () => {
  const undocumented: string[] = [];
  let interfaces = 0;
  for (const [name, text] of schemaDeclarations()) {
    const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    file.forEachChild((node) => {
      if (!ts.isInterfaceDeclaration(node)) return;
      interfaces++;
      for (const member of node.members) {
        const docs = ts.getJSDocCommentsAndTags(member);
        if (docs.length === 0) undocumented.push(`${node.name.text}.${member.name?.getText(file)}`);
      }
    });
  }
  expect(interfaces).toBeGreaterThan(5);
  expect(undocumented).toEqual([]);
});
