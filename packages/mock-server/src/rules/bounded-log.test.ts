import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBoundedLog, createColumnarLog } from './bounded-log.js';

describe('bounded log', () => {
  it('keeps the last `capacity` records in order and counts every one', () => {
    const log = createBoundedLog<number>(3);
    expect(log.entries()).toEqual([]);
    for (let i = 1; i <= 2; i++) log.push(i);
    expect(log.entries()).toEqual([1, 2]);
    for (let i = 3; i <= 10; i++) log.push(i);
    expect(log.entries()).toEqual([8, 9, 10]);
    expect(log.size).toBe(3);
    expect(log.total).toBe(10);
  });

  it('never holds more than its capacity', () => {
    const log = createBoundedLog<number>(100);
    for (let i = 0; i < 100_000; i++) log.push(i);
    expect(log.size).toBe(100);
    expect(log.entries()[0]).toBe(99_900);
  });

  it('a columnar log gives back what a log of records would, fields in their order', () => {
    type Row = { n: number; s: string | null; at: number };
    const row = fc.record({ n: fc.integer(), s: fc.option(fc.string()), at: fc.double({ noNaN: true }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.array(row, { maxLength: 30 }), (capacity, rows) => {
        const plain = createBoundedLog<Row>(capacity);
        const columnar = createColumnarLog<Row>(capacity, ['n', 's', 'at']);
        for (const r of rows) {
          plain.push(r);
          columnar.push(r);
          expect(columnar.entries()).toEqual(plain.entries());
          expect(JSON.stringify(columnar.entries())).toBe(JSON.stringify(plain.entries()));
          expect([columnar.size, columnar.total]).toEqual([plain.size, plain.total]);
        }
      }),
    );
  });
});
