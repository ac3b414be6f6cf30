import { describe, expect, it } from 'vitest';
import { identifierIssue, profileIdIssue } from './identifiers.js';

describe('identifier rules', () => {
  it('refuse . and .. as profile ids, wherever they come from', () => {
    expect(profileIdIssue(['path', 'profile_id'], '.')).toMatchObject({ type: 'value_error' });
    expect(profileIdIssue(['path', 'profile_id'], '..')).toMatchObject({ type: 'value_error' });
    expect(profileIdIssue(['path', 'profile_id'], '.a')).toBeUndefined();
  });

  it('count code points, and refuse lone surrogates', () => {
    const emoji = '\u{1F600}';
    expect(identifierIssue([], emoji.repeat(200))).toBeUndefined();
    expect(identifierIssue([], emoji.repeat(201))).toMatchObject({ type: 'string_too_long' });
    expect(identifierIssue([], '')).toMatchObject({ type: 'string_too_short' });
    expect(identifierIssue([], 'a\ud800')).toMatchObject({ type: 'string_unicode' });
    expect(identifierIssue([], '\udc00')).toMatchObject({ type: 'string_unicode' });
  });
});
