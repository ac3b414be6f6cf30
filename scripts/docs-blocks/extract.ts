// Finds the code blocks of the docs that a reader could copy and run: ts/js and sh fences.
// An info string with `no-run` (```ts no-run) marks a block that cannot run on its own; the
// convention is described in CONTRIBUTING.md.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type BlockKind = 'js' | 'sh';

export interface CodeBlock {
  /** `docs/sdk.md:42`: the file and the line of the opening fence. */
  where: string;
  kind: BlockKind;
  code: string;
  runnable: boolean;
}

const KINDS: Record<string, BlockKind> = {
  ts: 'js',
  typescript: 'js',
  js: 'js',
  javascript: 'js',
  mjs: 'js',
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
};

/** README.md, CONTRIBUTING.md, SECURITY.md, docs/*.md and every package's README.md. */
export function documentationFiles(root: string): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md'];
  for (const file of readdirSync(join(root, 'docs'))) if (file.endsWith('.md')) files.push(`docs/${file}`);
  // The guides `profile-articles help <topic>` prints, shipped in the CLI's package.
  for (const file of readdirSync(join(root, 'docs', 'guides'))) files.push(`docs/guides/${file}`);
  for (const name of readdirSync(join(root, 'packages'))) files.push(`packages/${name}/README.md`);
  return files.filter((file) => {
    try {
      readFileSync(join(root, file));
      return true;
    } catch {
      return false;
    }
  });
}

export function extractBlocks(file: string, text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open as unknown as [string, string, string, string, string];
    const start = i;
    const closing = new RegExp(`^\\s*\\${fence[0]}{${fence.length},}\\s*$`);
    const body: string[] = [];
    for (i++; i < lines.length && !closing.test(lines[i]!); i++) {
      const line = lines[i]!;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line);
    }
    const kind = KINDS[lang.toLowerCase()];
    if (!kind) continue;
    blocks.push({
      where: `${file}:${start + 1}`,
      kind,
      code: body.join('\n'),
      runnable: !rest.split(/\s+/).includes('no-run'),
    });
  }
  return blocks;
}
