// --out DIR: each article as `<name>.json` (the API's Article) and `<name>.md`, `name` from safe-name.ts.
// Written to a temporary file and renamed, so a crash never leaves half an article.
// Files a person may `cat`: the JSON is the server's value with DEL, C1 and bidi controls
// escaped (the SDK's safeJson); the Markdown, text for a person, has no control character left.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeLeftover, replaceFileDurably } from '@profile-articles/mock-server/files';
import type { Article } from '@profile-articles/sdk';
import { terminalSafe as line, safeJson } from '@profile-articles/sdk/internal/terminal';
import { safeName } from './safe-name.js';

function toMarkdown(article: Article): string {
  // The content may open with the title as its own heading: then it is not written twice.
  const content = line(article.content, 'lines').trim();
  const heading = `# ${line(article.title)}`;
  const body =
    content.startsWith(`${heading}\n`) || content === heading
      ? content.slice(heading.length).trim()
      : content;
  const lines = [heading, '', body, ''];
  if (article.sources.length) {
    lines.push('## Sources', '');
    for (const source of article.sources) {
      const title = source.url ? `[${line(source.title)}](${line(source.url)})` : line(source.title);
      lines.push(`${source.id}. ${title}${source.publication ? ` (${line(source.publication)})` : ''}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

function writeAtomically(path: string, text: string): void {
  // This run's own temporary: one left by an earlier run of the same pid goes first, as it is
  // made exclusively (never through a link); every byte checked, flushed, then renamed.
  const temporary = `${path}.${process.pid}.tmp`;
  removeLeftover(temporary);
  replaceFileDurably(path, text, temporary);
}

export function writeArticleFiles(dir: string, profileId: string, article: Article): void {
  mkdirSync(dir, { recursive: true });
  const name = safeName(profileId);
  writeAtomically(join(dir, `${name}.json`), `${safeJson(article, 2)}\n`);
  writeAtomically(join(dir, `${name}.md`), toMarkdown(article));
}
