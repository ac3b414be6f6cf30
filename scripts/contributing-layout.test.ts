// CONTRIBUTING.md places every source file of a package, so a newcomer knows where a thing
// lives and where a new one goes. This fails when a file under packages/{sdk,mock-server,cli}/src
// is named neither by its file name nor by its top folder (`rules/`) in that package's section.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The text of the `### \`packages/NAME/src\`` section, up to the next heading. */
function section(name: string): string {
  const start = contributing.indexOf(`### \`packages/${name}/src\``);
  if (start < 0) return '';
  const end = contributing.slice(start + 4).search(/\n##/);
  return contributing.slice(start, end < 0 ? undefined : start + 4 + end);
}

describe('CONTRIBUTING.md places every source file', () => {
  for (const name of ['sdk', 'mock-server', 'cli']) {
    it(`packages/${name}/src`, () => {
      const text = section(name);
      expect(text, `CONTRIBUTING.md has no "### \`packages/${name}/src\`" section`).not.toBe('');
      const src = join(root, 'packages', name, 'src');
      const unplaced = sources(src)
        .map((path) => relative(src, path))
        .filter((file) => {
          const folder = file.includes('/') ? `\`${file.split('/')[0]}/\`` : undefined;
          const base = `\`${file.split('/').at(-1)}\``;
          return !text.includes(base) && !(folder && text.includes(folder));
        });
      expect(unplaced, `add these to the packages/${name}/src table in CONTRIBUTING.md`).toEqual([]);
    });
  }
});
