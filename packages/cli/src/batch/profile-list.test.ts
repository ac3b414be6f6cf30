import { describe, expect, it } from 'vitest';
import { parseProfileList } from './profile-list.js';

describe('parseProfileList', () => {
  it('trims (CRLF included), skips blank lines and # comments, runs duplicates once', () => {
    const list = parseProfileList('ada\r\n  bob  \n\n# a comment\n   # indented comment\nada\r\ncyd');
    expect(list).toEqual({ ids: ['ada', 'bob', 'cyd'], duplicates: 1 });
  });
});
