import { describe, expect, it } from 'vitest';
import { createBoundedLog } from './bounded-log.js';

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
});
