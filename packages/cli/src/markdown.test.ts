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
