import { describe, expect, it } from 'vitest';
import { titleFromSlug, writeArticle } from './article-content.js';

describe('article content', () => {
  it('makes a title of the slug’s words', () => {
    expect(titleFromSlug('ada-lovelace')).toBe('Ada Lovelace');
    expect(titleFromSlug('grace-hopper-1a2b3c')).toBe('Grace Hopper');
    expect(titleFromSlug('1234')).toBe('1234');
  });

  it('is deterministic per slug and version, differs between versions, and cites only its sources', () => {
    expect(writeArticle('ada', 1)).toEqual(writeArticle('ada', 1));
    expect(writeArticle('ada', 2).content).not.toBe(writeArticle('ada', 1).content);
    for (const slug of ['ada', 'b', 'grace-hopper', 'x-y-z', 'someone-else']) {
      const { content, sources } = writeArticle(slug, 3);
      expect(sources.length).toBeGreaterThanOrEqual(3);
      expect(sources.length).toBeLessThanOrEqual(6);
      const refs = [...content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      for (const ref of refs) expect(ref).toBeGreaterThanOrEqual(1);
      for (const ref of refs) expect(ref).toBeLessThanOrEqual(sources.length);
    }
  });
});
