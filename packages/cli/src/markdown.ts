// Markdown for a terminal: headings, bold, italics, code, links, lists and citation references,
// wrapped to the width. Small on purpose: articles use a handful of constructs, and a full
// renderer would cost start-up time. Loaded only when an article is shown on a terminal.
import type { Style } from './style.js';
import { withoutOwnStyle } from './terminal-io.js';

const visibleLength = (text: string) => withoutOwnStyle(text).length;

// A link's label holds no bracket, and its address no bracket or parenthesis: each attempt then
// stops at the next `[`, `(` or `]`, so a block full of them from a server is scanned once, not
// once per `[` (300,000 `[` took minutes; 60,000 `[a](`, whose addresses ran to the end, 22 s).
function inline(text: string, style: Style): string {
  return text
    .replace(/`([^`]+)`/g, (_, code: string) => style.cyan(code))
    .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_, a?: string, b?: string) => style.bold(a ?? b ?? ''))
    .replace(
      /(^|[^*\w])\*([^*\s][^*]*)\*|(^|\W)_([^_\s][^_]*)_/g,
      (_, p1 = '', a?: string, p2 = '', b?: string) => `${p1}${p2}${style.italic(a ?? b ?? '')}`,
    )
    .replace(
      /\[([^[\]]+)\]\(([^()[\]\s]+)\)/g,
      (_, label: string, url: string) => `${style.underline(label)} ${style.dim(`(${url})`)}`,
    );
}

/** Greedy word wrap that measures what shows, not the escape codes. */
export function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && visibleLength(indent + line) + 1 + visibleLength(word) > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

export function renderMarkdown(markdown: string, style: Style, width: number): string {
  const out: string[] = [];
  const push = (...lines: string[]) => out.push(lines.join('\n'));
  const blocks = markdown.replace(/\r\n/g, '\n').split(/\n{2,}/);
  for (const block of blocks) {
    // One \s, then the rest trimmed: `\s+(.*)` backtracked over every space of a long run.
    const heading = /^(#{1,6})\s(.*)$/.exec(block.trim());
    if (heading) {
      const text = inline((heading[2] ?? '').trimStart(), style);
      push(heading[1] === '#' ? style.bold(style.underline(text)) : style.bold(text));
      continue;
    }
    if (/^\s*```/.test(block)) {
      push(
        ...block
          .split('\n')
          .filter((l) => !/^\s*```/.test(l))
          .map((l) => `    ${style.dim(l)}`),
      );
      continue;
    }
    const items = block.split('\n');
    if (items.every((l) => /^\s*([-*+]|\d+\.)\s+/.test(l))) {
      const lines: string[] = [];
      for (const item of items) {
        const [, marker = '-', rest = ''] = /^\s*([-*+]|\d+\.)\s+(.*)$/.exec(item) ?? [];
        const bullet = /\d/.test(marker) ? marker : '•';
        const wrapped = wrap(inline(rest, style), width - 4, '    ');
        lines.push(`  ${bullet} ${(wrapped[0] ?? '').trimStart()}`, ...wrapped.slice(1));
      }
      push(...lines);
      continue;
    }
    const quote = items.every((l) => l.startsWith('>'));
    const text = inline(items.map((l) => (quote ? l.replace(/^>\s?/, '') : l)).join(' '), style);
    push(...wrap(text, width, quote ? '  │ ' : ''));
  }
  return out.join('\n\n');
}
