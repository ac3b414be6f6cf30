// An article on stdout: Markdown rendered for a terminal (through a pager when it is long),
// plain text in a pipe. The renderer and the pager load only when used.
import type { Article } from '@profile-articles/sdk';
import { terminalSafe } from '@profile-articles/sdk/internal/terminal';
import type { Context } from '../settings/context.js';
import { renderArticle, type Wrap } from '../terminal/render.js';

export async function printArticle(ctx: Context, article: Article): Promise<void> {
  const { io, out } = ctx;
  const terminal = io.stdout.isTTY === true;
  // Safe before it is rendered, so that the Markdown and the widths are those of what shows.
  let content = terminalSafe(article.content, 'lines');
  let wrapLine: Wrap | undefined;
  if (terminal) {
    const { renderMarkdown, renderWidth, wrap } = await import('../terminal/markdown.js');
    const width = renderWidth(io.stdout.columns);
    content = renderMarkdown(content, out.style, width);
    wrapLine = (line, indent) => wrap(line, width, indent);
  }
  const text = renderArticle({ ...article, content }, out.style, wrapLine);
  if (terminal && ctx.options.pager !== false) {
    const { fitsScreen, page } = await import('../terminal/pager.js');
    if (!fitsScreen(text, io) && (await page(text, io))) return;
  }
  out.line(text);
}
