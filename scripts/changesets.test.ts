// The release reads every file in .changeset/: one that does not parse stops `changeset version`.
// A formatter once turned a closing `---` into a heading; these checks catch that in `pnpm test`
// (scripts/check-release.mjs proves the whole flow in CI).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = `${root}.changeset/`;
const changesets = readdirSync(dir).filter((file) => file.endsWith('.md') && file !== 'README.md');
const packages = ['@profile-articles/sdk', '@profile-articles/mock-server', '@profile-articles/cli'];

it.each(changesets)('.changeset/%s has front matter naming our packages and a bump type', (file) => {
  const text = readFileSync(`${dir}${file}`, 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n\n?\S/.exec(text);
  expect(match, `${file} must open with --- front matter closed by ---`).not.toBeNull();
  const lines = match![1]!.split('\n').filter((line) => line.trim() !== '');
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    const entry = /^"([^"]+)": (major|minor|patch)$/.exec(line);
    expect(entry, `${file}: "${line}" is not "package": bump`).not.toBeNull();
    expect(packages).toContain(entry![1]);
  }
});

it('Biome leaves .changeset/ alone (pnpm format must not rewrite changesets)', () => {
  let output = '';
  try {
    execFileSync(`${root}node_modules/.bin/biome`, ['check', `.changeset/${changesets[0]}`], {
      cwd: root,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (error) {
    output = String((error as { stderr?: string; stdout?: string }).stdout ?? '');
    output += String((error as { stderr?: string }).stderr ?? '');
  }
  expect(output).toContain('provided but ignored');
});
