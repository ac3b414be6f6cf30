// Articles, jobs and balances for a person to read in a terminal. Each field a server wrote
// that stands on one line here is made one safe line (terminal-safe.ts): a line break in a
// title or an error would otherwise draw a line of the server's choosing.
import type { Article, BalanceResponse, Job } from '@profile-articles/sdk';
import { plural } from './plural.js';
import type { Style } from './style.js';
import { terminalSafe as line } from './terminal-safe.js';
import { localTime } from './time-format.js';

function table(rows: Array<[string, string]>, style: Style): string[] {
  const width = Math.max(...rows.map(([key]) => key.length));
  return rows.map(([key, value]) => `  ${style.dim(key.padEnd(width))}  ${value}`);
}

/** Wraps a line to the terminal's width, each further line starting with `indent`. */
export type Wrap = (text: string, indent: string) => string[];

/**
 * `wrap`, on a terminal: lines that would overflow it are wrapped (a pipe gets them whole).
 * The content is shown as given, with its layout: the caller made it safe (or rendered it).
 */
export function renderArticle(article: Article, style: Style, wrap?: Wrap): string {
  const lines = [
    style.bold(line(article.title)),
    style.dim(`version ${article.current_version} · updated ${localTime(article.updated_at)}`),
    '',
  ];
  if (article.infobox && Object.keys(article.infobox).length) {
    const rows = Object.entries(article.infobox).map(([key, value]): [string, string] => [
      line(key.replaceAll('_', ' ')),
      line(typeof value === 'string' ? value : JSON.stringify(value)),
    ]);
    lines.push(...table(rows, style), '');
  }
  // The text keeps its citation references; it is never truncated.
  lines.push(
    article.content.replace(/\[(\d+)\](?!\()/g, (ref) => style.cyan(ref)),
    '',
  );
  if (article.sources.length) {
    lines.push(style.bold('Sources'));
    for (const source of article.sources) {
      const where = [source.publication, source.url]
        .flatMap((part) => (part ? [line(part)] : []))
        .join(' · ');
      const shown = `${style.cyan(`[${source.id}]`)} ${line(source.title)}${where ? style.dim(` — ${where}`) : ''}`;
      // A hanging indent under the title: "  [1] " is six columns wide for ids below 10.
      const [first = '', ...rest] = wrap ? wrap(shown, '      ') : [`      ${shown}`];
      lines.push(`  ${first.trimStart()}`, ...rest);
    }
  }
  return lines.join('\n');
}

export function renderJob(job: Job, style: Style): string {
  const color =
    job.status === 'succeeded'
      ? style.green
      : job.status === 'failed' || job.status === 'cancelled'
        ? style.red
        : style.yellow;
  const rows: Array<[string, string]> = [
    ['job', line(job.job_id)],
    ['profile', line(job.profile_id)],
    ['status', color(job.status)],
    ['credits', plural(job.credits_charged, 'credit')],
  ];
  if (job.error) rows.push(['error', line(job.error)]);
  return table(rows, style).join('\n');
}

export function renderBalance(balance: BalanceResponse, style: Style): string {
  const p = balance.pricing;
  const price =
    p.credit_price_cents === undefined ? 'ask your operator' : `${p.credit_price_cents} cents per credit`;
  return [
    `${style.bold(String(balance.credits))} ${balance.credits === 1 ? 'credit' : 'credits'}`,
    '',
    ...table(
      [
        ['read', plural(p.read_credits, 'credit')],
        ['generate / update', plural(p.generation_credits, 'credit')],
        ['poll / balance', 'free'],
        ['price', price],
        ['purchase range', `${p.min_purchase_credits} to ${p.max_purchase_credits} credits`],
        ['rate limit', `${plural(p.requests_per_minute, 'request')} per minute`],
        ['queued timeout', plural(p.queued_timeout_minutes, 'minute')],
      ],
      style,
    ),
  ].join('\n');
}
