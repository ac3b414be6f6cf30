import { anyCodePoints } from '@profile-articles/test-utils/arbitraries';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEPT_CHARS, KEPT_INPUT_CHARS, keptBy, parseOnce } from './parse-once.js';

const valid = () => ({ ok: true as const, data: {} });

describe('parseOnce', () => {
  it('parses a valid input once and shares its frozen result', () => {
    const schema = {};
    let runs = 0;
    const parse = () => {
      runs++;
      return { ok: true as const, data: { profile_id: 'ada' } };
    };
    const first = parseOnce(schema, 'ada', parse);
    expect(parseOnce(schema, 'ada', parse)).toBe(first);
    expect(runs).toBe(1);
    expect(Object.isFrozen(first.data)).toBe(true);
  });

  it('parses an invalid input every time, so each 422 is built afresh', () => {
    const schema = {};
    let runs = 0;
    const parse = () => {
      runs++;
      return { ok: false as const, issues: [] };
    };
    parseOnce(schema, 'bad', parse);
    parseOnce(schema, 'bad', parse);
    expect(runs).toBe(2);
  });

  it('keeps one memo per schema, and starts over when one fills up', () => {
    const [a, b] = [{}, {}];
    let runs = 0;
    const parse = () => {
      runs++;
      return { ok: true as const, data: runs };
    };
    parseOnce(a, 'x', parse);
    parseOnce(b, 'x', parse);
    expect(runs).toBe(2);
    for (let i = 0; i < 1024; i++) parseOnce(a, `key-${i}`, parse);
    const before = runs;
    parseOnce(a, 'x', parse); // dropped when the memo started over
    expect(runs).toBe(before + 1);
  });

  it('never keeps an input longer than KEPT_INPUT_CHARS, and a long one evicts nothing', () => {
    const schema = {};
    let runs = 0;
    const parse = () => {
      runs++;
      return valid();
    };
    parseOnce(schema, '{"profile_id":"ada"}', parse);
    const padded = `{"profile_id":"ada"}${' '.repeat(KEPT_INPUT_CHARS)}`;
    for (let i = 0; i < 3; i++) parseOnce(schema, padded, parse);
    expect(runs).toBe(4);
    expect(keptBy(schema)).toEqual({ entries: 1, chars: 20 });
    parseOnce(schema, '{"profile_id":"ada"}', parse); // still kept: the replay's hit
    expect(runs).toBe(4);
  });

  it('keeps at most 1,024 inputs and KEPT_CHARS characters of them, whatever comes', () => {
    const input = fc.oneof(
      fc.string({ maxLength: 40 }),
      anyCodePoints({ maxLength: 600 }),
      fc.nat({ max: 4 * KEPT_INPUT_CHARS }).map((n) => ' '.repeat(n)),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(input, fc.boolean()), { maxLength: 3000 }), (inputs) => {
        const schema = {};
        for (const [text, ok] of inputs) {
          parseOnce(schema, text, () => (ok ? valid() : { ok: false as const }));
          const kept = keptBy(schema);
          expect(kept.entries).toBeLessThanOrEqual(1024);
          expect(kept.chars).toBeLessThanOrEqual(KEPT_CHARS);
        }
      }),
      { numRuns: 30 },
    );
  });
});
