// Articles, jobs and balances for a person to read in a terminal. Each field a server wrote
// that stands on one line here is made one safe line (the SDK's terminalSafe): a line break in
// a title or an error would otherwise draw a line of the server's choosing.
import type { Article, BalanceResponse, Job } from '@profile-articles/sdk';
import { terminalSafe as line, safeJson } from '@profile-articles/sdk/internal/terminal';
import { plural } from './plural.js';
import type { Style } from './style.js';
import { localTime } from './time-format.js';

function table(rows: Array<[string, string]>, style: Style): string[] {
  const width = rows.reduce((widest, [key]) => Math.max(widest, key.length), 0);
  return rows.map(([key, value]) => `  ${style.dim(key.padEnd(width))}  ${value}`);
}

/** The infobox rows shown, and the length of one key or value in them (--json has them all). */
const INFOBOX_ROWS = 40;
const INFOBOX_CELL = 200;

const cut = (text: string) => (text.length > INFOBOX_CELL ? `${text.slice(0, INFOBOX_CELL)}…` : text);

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
  const facts = article.infobox ? Object.entries(article.infobox) : [];
  if (facts.length) {
    // A server may send any number of keys, nested to any depth: show a screenful, each on one line.
    const rows = facts
      .slice(0, INFOBOX_ROWS)
      .map(([key, value]): [string, string] => [
        cut(line(key.replaceAll('_', ' '))),
        cut(line(typeof value === 'string' ? value : safeJson(value, undefined, INFOBOX_CELL * 2))),
      ]);
    lines.push(...table(rows, style));
    if (facts.length > INFOBOX_ROWS)
      lines.push(`  ${style.dim(`… ${(facts.length - INFOBOX_ROWS).toLocaleString('en-US')} more`)}`);
    lines.push('');
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
