import { describe, expect, it } from 'vitest';
import { safeName } from './safe-name.js';

describe('safeName', () => {
  it('keeps a plain lowercase slug as it is', () => {
    expect(safeName('jane-doe_42')).toBe('jane-doe_42');
  });

  it('turns upper case into `_` and appends a hash, as docs/bulk.md shows', () => {
    expect(safeName('Jane-Doe')).toMatch(/^_ane-_oe-[0-9a-f]{10}$/);
  });

  it('never yields a slash, a dot name or a Windows device name', () => {
    for (const id of ['a/b', '..', '.', 'con', 'NUL', 'a\\b']) {
      const name = safeName(id);
      expect(name).toMatch(/^[a-z0-9_-]+$/);
      expect(name).not.toMatch(/^(con|nul)$/);
    }
  });

  it('gives ids that differ only in case different names, even compared case-insensitively', () => {
    const names = ['ada', 'Ada', 'ADA', 'a.da', 'a/da', 'a_da'].map((id) => safeName(id).toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });

  it('bounds the length, and long ids that share a prefix stay apart', () => {
    const a = safeName(`${'x'.repeat(190)}a`);
    const b = safeName(`${'x'.repeat(190)}b`);
    expect(a.length).toBeLessThanOrEqual(91);
    expect(a).not.toBe(b);
  });
});
