import { describe, expect, it } from 'vitest';
import { markUnchanging, toJsonText, unchangingJson } from './json-text.js';

describe('toJsonText', () => {
  const article = { article_id: 'a-1', content: '# Ada\n\n"quoted" \u2028 text', sources: [{ id: 1 }] };
  markUnchanging(article);

  it.each([
    ['a read', { article, credits_charged: 1 }],
    ['a body with members JSON leaves out', { a: undefined, article, f: () => 1, n: null, d: new Date(0) }],
    ['a body whose toJSON gives the article', { toJSON: () => ({ job_id: 'j', article, error: null }) }],
    ['the unchanging value itself', article],
    ['no unchanging value', { detail: 'x', list: [1, 'two'] }],
    ['an array', [article, 1]],
    ['a string', 'text'],
    ['null', null],
  ])('gives the text JSON.stringify gives for %s', (_name, body) => {
    expect(toJsonText(body)).toBe(JSON.stringify(body));
  });

  it('serialises an unchanging value once', () => {
    const value = { title: 'once' };
    markUnchanging(value);
    expect(unchangingJson(value)).toBe('{"title":"once"}');
    value.title = 'changed anyway';
    expect(unchangingJson(value)).toBe('{"title":"once"}');
    expect(unchangingJson({ title: 'not marked' })).toBeUndefined();
  });

  it("makes an unchanging answer's text from its unchanging article's kept text", () => {
    const inner = { content: 'kept' };
    markUnchanging(inner);
    expect(unchangingJson(inner)).toBe('{"content":"kept"}');
    // Changed after its text was kept: the answer shows the kept text, so it was spliced in.
    inner.content = 'changed';
    const answer = { article: inner, credits_charged: 1 };
    markUnchanging(answer);
    expect(toJsonText(answer)).toBe('{"article":{"content":"kept"},"credits_charged":1}');
    const fresh = { article, credits_charged: 2 };
    markUnchanging(fresh);
    expect(toJsonText(fresh)).toBe(JSON.stringify(fresh));
  });
});
