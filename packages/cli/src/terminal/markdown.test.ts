import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderMarkdown, wrap } from './markdown.js';
import { colorsFor, plain } from './style.js';
import { localTime, relativeTime } from './time-format.js';

const marked = {
  ...plain,
  bold: (t: string) => `<b>${t}</b>`,
  italic: (t: string) => `<i>${t}</i>`,
  underline: (t: string) => `<u>${t}</u>`,
  dim: (t: string) => `<d>${t}</d>`,
};

describe('renderMarkdown', () => {
  it('styles headings, bold, italics and links, and lists', () => {
    const out = renderMarkdown(
      '# Title\n\n**Ada** is *known* for [notes](https://x.org).\n\n- one\n- two',
      marked,
      80,
    );
    expect(out.split('\n')).toEqual([
      '<b><u>Title</u></b>',
      '',
      '<b>Ada</b> is <i>known</i> for <u>notes</u> <d>(https://x.org)</d>.',
      '',
      '  • one',
      '  • two',
    ]);
  });

  it('wraps to the width, counting what shows rather than escape codes', () => {
    const { bold } = colorsFor({ isTTY: true, write: () => true }, {});
    const lines = wrap(`${bold('aaaa')} bbbb cccc`, 9);
    expect(lines).toEqual([`${bold('aaaa')} bbbb`, 'cccc']);
  });
});

describe('hostile content', () => {
  it('renders a long line of brackets from a server in one pass', () => {
    // The link pattern scanned to the end of the block once per `[`: minutes for 300,000.
    const brackets = '['.repeat(300_000);
    expect(renderMarkdown(brackets, plain, 80)).toBe(brackets);
    expect(renderMarkdown(`${' ['.repeat(100_000)}](x`, plain, 80)).toContain('[ [ [');
  });

  it('renders 60,000 unclosed links in one pass', () => {
    // A link's address ran to the end of the block once per `[a](`: 22 s of CPU for this one.
    const links = '[a]('.repeat(60_000);
    expect(renderMarkdown(links, plain, 80)).toBe(links);
  });

  it('renders a heading of 100,000 spaces followed by a second line in one pass', () => {
    const block = `#${' '.repeat(100_000)}x\ny`;
    expect(renderMarkdown(block, plain, 80)).toContain('x y');
  });

  it('takes time linear in the length for any repeated pattern of Markdown punctuation', () => {
    // A budget relative to ordinary text of the same length, timed in the same run: a loaded
    // machine slows both alike, and a quadratic pattern is thousands of times slower at this size.
    const size = 120_000;
    const time = (text: string) => {
      const start = process.hrtime.bigint();
      renderMarkdown(text, marked, 80);
      return Number(process.hrtime.bigint() - start);
    };
    const baseline = () =>
      Math.max(...[0, 1, 2].map(() => time('Ada wrote **notes** on the [engine](x). '.repeat(size / 40))));
    const fragment = fc.constantFrom(
      '[',
      ']',
      '(',
      ')',
      '[a](',
      '](',
      '*',
      '**',
      '_',
      '__',
      '`',
      '#',
      ' ',
      'a',
      '\n',
      '> ',
      '- ',
      '1. ',
    );
    fc.assert(
      fc.property(fc.array(fragment, { minLength: 1, maxLength: 5 }), (parts) => {
        const unit = parts.join('');
        const text = unit.repeat(Math.ceil(size / unit.length));
        expect(time(text)).toBeLessThan(50 * baseline());
      }),
      { numRuns: 25 },
    );
    // 25 patterns of 120,000 characters each, and their baselines: CPU work that a loaded
    // runner stretches many times over. The budget is the ratio above; this is for a hang.
  }, 120_000);
});

describe('times', () => {
  it('says how long ago, with the right plural', () => {
    const now = new Date('2026-11-22T03:00:00Z');
    expect(relativeTime(new Date('2026-11-22T02:57:00Z'), now)).toBe('3 minutes ago');
    expect(relativeTime(new Date('2026-11-22T02:00:00Z'), now)).toBe('1 hour ago');
    expect(relativeTime(new Date('2026-11-22T02:59:58Z'), now)).toBe('just now');
    expect(localTime('not a time', now)).toBe('not a time');
    expect(localTime('2026-11-22T02:57:00Z', now)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d \(3 minutes ago\)$/);
  });
});

describe('tables (the guides of `help <topic>` have them)', () => {
  const TABLE = [
    '| code | meaning |',
    '| ---- | ------- |',
    '| 0 | success |',
    '| 2 | invalid usage: `batch <a\\|b>` |',
  ].join('\n');

  it('pads columns to their widest cell, the header bold over a rule', () => {
    expect(renderMarkdown(TABLE, marked, 80).split('\n')).toEqual([
      '  <b>code</b>  <b>meaning</b>',
      '  <d>────  ──────────────────────────</d>',
      '  0     success',
      '  2     invalid usage: batch <a|b>',
    ]);
  });

  it('wraps the last column under itself when the table is wider than the terminal', () => {
    const lines = renderMarkdown(TABLE, plain, 30).split('\n');
    expect(lines).toEqual([
      '  code  meaning',
      '  ────  ──────────────────────',
      '  0     success',
      '  2     invalid usage: batch',
      '        <a|b>',
    ]);
  });

  it('shows each row as a record when the last column would be too narrow', () => {
    const wide =
      '| name | effect |\n| --- | --- |\n| PROFILE_ARTICLES_POLL_INTERVAL | seconds between polls |';
    expect(renderMarkdown(wide, plain, 40).split('\n')).toEqual([
      '  PROFILE_ARTICLES_POLL_INTERVAL',
      '    seconds between polls',
    ]);
  });

  it('keeps every line within the width and every word, whatever the table', () => {
    // No `*`, `_` or backticks: those are Markdown, whose marks rightly do not show.
    const word = fc.stringMatching(/^[a-zA-Z0-9éß.-]{1,10}$/);
    const cell = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((columns) =>
          fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), {
            minLength: 2,
            maxLength: 6,
          }),
        ),
        fc.integer({ min: 30, max: 120 }),
        (rows, width) => {
          const [head = [], ...body] = rows;
          const markdown = [head, head.map(() => '---'), ...body]
            .map((r) => `| ${r.join(' | ')} |`)
            .join('\n');
          const out = renderMarkdown(markdown, plain, width);
          for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(width);
          // The header may be left out: a table too wide becomes records, each under its first cell.
          for (const w of body.flat().join(' ').split(' ')) expect(out).toContain(w);
        },
      ),
    );
  });

  it('renders a table of 200,000 rows from a server without running out of stack', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => `| ${i} | x |`);
    const out = renderMarkdown(['| a | b |', '| - | - |', ...rows].join('\n'), plain, 80);
    expect(out.split('\n')).toHaveLength(200_002);
  });
});
