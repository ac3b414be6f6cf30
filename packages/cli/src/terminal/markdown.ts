// Markdown for a terminal: headings, bold, italics, code, links, lists, tables and citation
// references, wrapped to the width. Small on purpose: articles use a handful of constructs, and a full
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

/** One row of a table: `| a | b \\| c |` is ['a', 'b | c']. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll('\\|', '|'));
}

const TABLE_DIVIDER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** A GitHub table: a header row, a `| --- |` divider, then rows, every line starting with `|`. */
function isTable(lines: string[]): boolean {
  return (
    lines.length >= 2 &&
    lines.every((l) => l.trimStart().startsWith('|')) &&
    TABLE_DIVIDER.test(lines[1] ?? '')
  );
}

/** The narrowest last column worth wrapping into; narrower, each row becomes a short record. */
const MIN_LAST_COLUMN = 20;

/**
 * Columns padded to their widest cell, the last one wrapped when the table is wider than the
 * terminal; when even that leaves the last column too narrow, each row is shown as its first
 * cell followed by `header: value` lines.
 */
function table(lines: string[], style: Style, width: number): string[] {
  const [head = [], ...body] = [lines[0] ?? '', ...lines.slice(2)].map((l) =>
    cells(l).map((c) => inline(c, style)),
  );
  const columns = head.length;
  const rows = body.map((row) => Array.from({ length: columns }, (_, i) => row[i] ?? ''));
  // A reduce, not Math.max(...): a server's table may have more rows than a call takes arguments.
  const widths = head.map((_, i) =>
    [head, ...rows].reduce((widest, row) => Math.max(widest, visibleLength(row[i] ?? '')), 0),
  );
  const pad = (text: string, i: number) =>
    text + ' '.repeat(Math.max(0, (widths[i] ?? 0) - visibleLength(text)));
  const before = 2 + widths.slice(0, -1).reduce((sum, w) => sum + w + 2, 0);
  const last = width - before;
  if (columns > 1 && last < MIN_LAST_COLUMN) {
    return rows.flatMap((row, r) => [
      ...(r ? [''] : []),
      ...wrap(style.bold(row[0] ?? ''), width, '  '),
      ...row
        .slice(1)
        // Two columns need no label: the value stands under its name.
        .flatMap((cell, i) =>
          cell ? wrap(columns > 2 ? `${style.dim(`${head[i + 1]}:`)} ${cell}` : cell, width, '    ') : [],
        ),
    ]);
  }
  const render = (row: string[], header: boolean) => {
    const lastLines = columns > 1 ? wrap(row.at(-1) ?? '', last) : [];
    const first = row.slice(0, -1).map((cell, i) => pad(header ? style.bold(cell) : cell, i));
    const shown = header ? lastLines.map((l) => style.bold(l)) : lastLines;
    if (columns === 1) return wrap(header ? style.bold(row[0] ?? '') : (row[0] ?? ''), width - 2, '  ');
    return [
      `  ${[...first, shown[0] ?? ''].join('  ')}`.trimEnd(),
      ...shown.slice(1).map((l) => `${' '.repeat(before)}${l}`),
    ];
  };
  const rule = `  ${style.dim(widths.map((w, i) => '─'.repeat(i === columns - 1 ? Math.min(w, Math.max(last, 1)) : w)).join('  '))}`;
  return [...render(head, true), rule, ...rows.flatMap((row) => render(row, false))];
}

export function renderMarkdown(markdown: string, style: Style, width: number): string {
  const out: string[] = [];
  // An array, not `...lines`: a server's list or table may have more lines than a call takes arguments.
  const push = (lines: string[]) => out.push(lines.join('\n'));
  const blocks = markdown.replace(/\r\n/g, '\n').split(/\n{2,}/);
  for (const block of blocks) {
    // One \s, then the rest trimmed: `\s+(.*)` backtracked over every space of a long run.
    const heading = /^(#{1,6})\s(.*)$/.exec(block.trim());
    if (heading) {
      const text = inline((heading[2] ?? '').trimStart(), style);
      push([heading[1] === '#' ? style.bold(style.underline(text)) : style.bold(text)]);
      continue;
    }
    if (/^\s*```/.test(block)) {
      push(
        block
          .split('\n')
          .filter((l) => !/^\s*```/.test(l))
          .map((l) => `    ${style.dim(l)}`),
      );
      continue;
    }
    const items = block.split('\n');
    if (isTable(items)) {
      push(table(items, style, width));
      continue;
    }
    if (items.every((l) => /^\s*([-*+]|\d+\.)\s+/.test(l))) {
      const lines: string[] = [];
      for (const item of items) {
        const [, marker = '-', rest = ''] = /^\s*([-*+]|\d+\.)\s+(.*)$/.exec(item) ?? [];
        const bullet = /\d/.test(marker) ? marker : '•';
        const wrapped = wrap(inline(rest, style), width - 4, '    ');
        lines.push(`  ${bullet} ${(wrapped[0] ?? '').trimStart()}`, ...wrapped.slice(1));
      }
      push(lines);
      continue;
    }
    const quote = items.every((l) => l.startsWith('>'));
    const text = inline(items.map((l) => (quote ? l.replace(/^>\s?/, '') : l)).join(' '), style);
    push(wrap(text, width, quote ? '  │ ' : ''));
  }
  return out.join('\n\n');
}

/**
 * The width to render for: the terminal's, at most 100 columns; 80 where it reports none or 0
 * (a pty under `script` says 0, and text rendered for it came out one word per line).
 */
export const renderWidth = (columns: number | undefined): number => Math.min(columns || 80, 100);
