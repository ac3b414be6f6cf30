import { expect, it } from 'vitest';
import { createClock } from './clock.js';

it('runs with its source and moves forward when advanced', () => {
  let now = 1000;
  const clock = createClock(() => now);
  expect(clock.now()).toBe(1000);
  clock.advance(500);
  now = 1100;
  expect(clock.now()).toBe(1600);
});
