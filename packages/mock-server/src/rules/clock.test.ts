import { expect, it } from 'vitest';
import { createClock, MAX_CLOCK_MS } from './clock.js';

it('runs with its source and moves forward when advanced', () => {
  let now = 1000;
  const clock = createClock(() => now);
  expect(clock.now()).toBe(1000);
  clock.advance(500);
  now = 1100;
  expect(clock.now()).toBe(1600);
});

it('refuses to move past the latest time a date can be written for, and stays put', () => {
  const clock = createClock(() => 0);
  expect(() => clock.advance(Number.MAX_SAFE_INTEGER)).toThrow(RangeError);
  expect(clock.now()).toBe(0);
  clock.advance(MAX_CLOCK_MS);
  expect(new Date(clock.now() + 24 * 3_600_000).toISOString()).toMatch(/^\+275/);
  expect(() => clock.advance(1)).toThrow(RangeError);
});
