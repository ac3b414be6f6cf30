import { describe, expect, it } from 'vitest';
import { createScheduler } from './scheduler.js';

describe('scheduler', () => {
  it('runs due events in time order, each at its own time, and keeps later ones', () => {
    const scheduler = createScheduler();
    const ran: Array<[string, number]> = [];
    scheduler.at(30, (at) => ran.push(['c', at]));
    scheduler.at(10, (at) => ran.push(['a', at]));
    scheduler.at(20, (at) => ran.push(['b', at]));
    scheduler.at(10, (at) => ran.push(['a2', at]));
    scheduler.at(99, (at) => ran.push(['late', at]));
    scheduler.runDue(30);
    expect(ran).toEqual([
      ['a', 10],
      ['a2', 10],
      ['b', 20],
      ['c', 30],
    ]);
    expect(scheduler.size).toBe(1);
  });

  it('runs events scheduled by events when they are already due', () => {
    const scheduler = createScheduler();
    const ran: number[] = [];
    scheduler.at(5, () => scheduler.at(6, (at) => ran.push(at)));
    scheduler.runDue(10);
    expect(ran).toEqual([6]);
  });

  it('orders many random events correctly', () => {
    const scheduler = createScheduler();
    const times = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1000);
    const ran: number[] = [];
    for (const t of times) scheduler.at(t, (at) => ran.push(at));
    scheduler.runDue(1000);
    expect(ran).toEqual([...times].sort((a, b) => a - b));
  });

  it('reports an event that throws and still runs the ones after it', () => {
    const errors: unknown[] = [];
    const scheduler = createScheduler((error) => errors.push(error));
    const ran: number[] = [];
    scheduler.at(1, () => {
      throw new Error('boom');
    });
    scheduler.at(2, (at) => ran.push(at));
    expect(() => scheduler.runDue(5)).not.toThrow();
    expect(ran).toEqual([2]);
    expect(errors).toEqual([expect.objectContaining({ message: 'boom' })]);
  });
});
