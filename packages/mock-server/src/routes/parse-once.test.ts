import { describe, expect, it } from 'vitest';
import { parseOnce } from './parse-once.js';

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
});
