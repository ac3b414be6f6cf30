import { describe, expect, it } from 'vitest';
import { renderArticle } from './render.js';
import { plain } from './style.js';

const article = {
  article_id: 'a',
  title: 'T',
  content: 'c',
  sources: [],
  current_version: 1,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
};

describe('renderArticle with a hostile infobox', () => {
  it('shows the first rows of 300,000 keys and says how many more', () => {
    const infobox = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`k${i}`, `v${i}`]));
    const out = renderArticle({ ...article, infobox }, plain);
    expect(out).toContain('k0');
    expect(out).not.toContain('k299999');
    expect(out).toMatch(/… 299,9\d\d more/);
  });

  it('shows a value nested 20,000 deep cut to one line', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    const out = renderArticle({ ...article, infobox: { born: deep } }, plain);
    const row = out.split('\n').find((l) => l.includes('born')) ?? '';
    expect(row).toContain('{"a":{"a":');
    expect(row.length).toBeLessThan(300);
  });
});
