import type { ReadResponse } from '@profile-articles/sdk';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Context } from '../settings/context.js';
import { spent } from '../shared/charge-note.js';
import { printArticle } from '../shared/show-article.js';

export interface ReadOptions {
  /** The article's Markdown alone, unrendered. */
  raw?: boolean;
  /** Write the Markdown to this file instead. */
  output?: string;
  force?: boolean;
}

export async function readCommand(ctx: Context, profileId: string, opts: ReadOptions = {}): Promise<void> {
  if (opts.raw && ctx.out.json)
    throw new CliError('--raw and --json cannot be used together.', ExitCode.Usage);
  if (opts.force && (opts.output === undefined || opts.output === '-'))
    throw new CliError('--force goes with -o FILE.', ExitCode.Usage);
  const output = opts.output;
  // `-o -` is stdout, as curl and gh take it: the Markdown alone, as --raw prints it.
  if (output === undefined || output === '-') {
    const client = await ctx.client();
    const answer = await client.articles.read(profileId);
    return show(ctx, answer, opts.raw === true || output === '-');
  }
  const { checkTarget, saveFile } = await import('../shared/save-file.js');
  // Before the read is paid for: a file that may not be replaced, or a folder that is not there.
  checkTarget(output, opts.force === true);
  const client = await ctx.client();
  const answer = await client.articles.read(profileId);
  saveFile(output, answer.article.content, opts.force === true);
  if (ctx.out.json) return ctx.out.value({ path: output, credits_charged: answer.credits_charged });
  ctx.out.note(`Wrote ${output}.`);
  await spent(ctx, answer.credits_charged);
}

async function show(ctx: Context, answer: ReadResponse, raw: boolean): Promise<void> {
  if (ctx.out.json) return ctx.out.value(answer);
  // The Markdown as it is; a last line break is added when it has none, so a shell's prompt
  // does not start on the article's last line.
  if (raw)
    ctx.out.raw(
      answer.article.content.endsWith('\n') ? answer.article.content : `${answer.article.content}\n`,
    );
  else await printArticle(ctx, answer.article);
  await spent(ctx, answer.credits_charged);
}
