import { hostileText, RAW_IN_JSON } from '@profile-articles/test-utils/hostile-strings';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeJson } from './safe-json.js';

describe('safeJson', () => {
  it('writes DEL, C1, bidi controls and separators as \\u escapes', () => {
    expect(safeJson({ title: 'a\u009b2Jb\u007f\u202ec\u2028\\\u0085' })).toBe(
      '{"title":"a\\u009b2Jb\\u007f\\u202ec\\u2028\\\\\\u0085"}',
    );
  });

  it('writes the default-ignorable code points as \\u escapes (a tag character as its surrogate pair)', () => {
    const split = 'sk\u034f-li\ufe0fve\u{e0020}-01\u3164234';
    const text = safeJson({ key: split });
    expect(text).toBe('{"key":"sk\\u034f-li\\ufe0fve\\udb40\\udc20-01\\u3164234"}');
    expect(JSON.parse(text)).toEqual({ key: split });
  });

  it('is the same JSON value, with nothing raw left, whatever the strings', () => {
    const strings = hostileText();
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        strings,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(strings, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 2), (input, indent) => {
        const text = safeJson(input, indent);
        expect(text).not.toMatch(RAW_IN_JSON);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(input)));
      }),
    );
  });
});

describe('safeJson of a value nested or wide beyond the stack', () => {
  it('writes 20,000 levels and 300,000 keys as the same value, compact and indented', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20_000; i++) deep = { a: [deep] };
    const wide = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`k${i}`, i]));
    for (const indent of [undefined, 2]) {
      const text = safeJson({ deep, wide }, indent);
      expect(text.startsWith(indent ? '{\n  "deep": {\n    "a": [' : '{"deep":{"a":[{"a":[')).toBe(true);
      expect(text).toContain(indent ? '"k299999": 299999\n' : '"k299999":299999}');
      expect(text.split('"bottom"').length).toBe(2);
    }
    // Pure CPU work (about 1 s idle) that a loaded runner stretches many times over.
  }, 120_000);

  // An attack trial: an 8 MB answer 4,000,000 levels deep, indented, was gigabytes of spaces
  // ("Invalid string length") after the read was charged. Past 64 levels it is compact.
  it('writes 1,000,000 levels indented as the same value, about as long as the compact one', () => {
    const depth = 1_000_000;
    const compact = `{"a":${'['.repeat(depth)}"bottom",{"b":1}${']'.repeat(depth)}}`;
    const text = safeJson(JSON.parse(compact), 2);
    expect(text.startsWith('{\n  "a": [\n    [\n      [')).toBe(true);
    expect(text.replace(/\s/g, '')).toBe(compact);
    expect(text.length).toBeLessThan(compact.length + 64 * 64 * 2 * 2);
  }, 120_000);
});
