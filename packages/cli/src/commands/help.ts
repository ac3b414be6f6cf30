// `profile-articles help <topic>`: a guide shipped in the package, shown as an article is (rendered
// and paged on a terminal, the Markdown as written in a pipe), so an npm user reads the same
// guides the repository has without leaving the terminal.
import { access, readFile } from 'node:fs/promises';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { GuideTopic } from '../shell/guide-topics.js';
import type { Io } from '../terminal/io.js';

/**
 * The build copies docs/guides/ to the package's guides/ folder, beside its package.json: the
 * nearest one above this file, which runs as src/commands/help.ts, dist/commands/help.js, or
 * bundled into dist/index.js and dist/index.cjs (the exported `run()`, one level nearer the
 * root; its CommonJS build gets import.meta.url from tsup's shim). Looked for only when a guide
 * is asked for.
 */
async function guidesFolder(): Promise<URL> {
  let folder = new URL('./', import.meta.url);
  for (;;) {
    // node:fs/promises only, which reading the guide loads anyway (startup.test.ts).
    if (
      await access(new URL('package.json', folder)).then(
        () => true,
        () => false,
      )
    )
      return new URL('guides/', folder);
    const up = new URL('../', folder);
    if (up.href === folder.href) return new URL('../../guides/', import.meta.url);
    folder = up;
  }
}

/**
 * Takes the Io rather than a Context: a guide needs no settings, and in a pipe it loads nothing
 * but this file (startup.test.ts).
 */
export async function helpTopicCommand(io: Io, topic: GuideTopic, pager: boolean): Promise<void> {
  let markdown: string;
  const guides = await guidesFolder();
  try {
    markdown = await readFile(new URL(`${topic}.md`, guides), 'utf8');
  } catch {
    // Only a broken install (or a clone not yet built) gets here.
    throw new CliError(
      `The guide "${topic}" is missing from this installation (${new URL(`${topic}.md`, guides).pathname}).`,
      ExitCode.Failure,
      'Reinstall @profile-articles/cli; in a clone of the repository, run `pnpm build` first.',
    );
  }
  if (io.stdout.isTTY !== true) {
    io.stdout.write(`${markdown.trimEnd()}\n`);
    return;
  }
  const [{ renderMarkdown, renderWidth }, { colorsFor }] = await Promise.all([
    import('../terminal/markdown.js'),
    import('../terminal/style.js'),
  ]);
  const text = renderMarkdown(markdown, colorsFor(io.stdout, io.env), renderWidth(io.stdout.columns));
  if (pager) {
    const { fitsScreen, page } = await import('../terminal/pager.js');
    if (!fitsScreen(text, io) && (await page(text, io))) return;
  }
  io.stdout.write(`${text}\n`);
}
