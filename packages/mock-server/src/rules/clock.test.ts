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

it('reads the global Date at every call, so fake timers turned on later are followed', () => {
  const clock = createClock();
  const real = Date.now;
  try {
    Date.now = () => 5_000_000;
    expect(clock.now()).toBe(5_000_000);
    clock.advance(10);
    Date.now = () => 5_000_100;
    expect(clock.now()).toBe(5_000_110);
  } finally {
    Date.now = real;
  }
});

it('never runs backwards: a source that steps back is taken up into the offset', () => {
  let now = 10_000;
  const clock = createClock(() => now);
  clock.advance(1000);
  expect(clock.now()).toBe(11_000);
  now = 2_000; // fake timers turned off after they ran ahead
  expect(clock.now()).toBe(11_000);
  now = 2_500;
  expect(clock.now()).toBe(11_500);
  expect(clock.advanceUpToLimit(500)).toBe(false);
  expect(clock.now()).toBe(12_000);
});
