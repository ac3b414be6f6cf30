// Shared fast-check arbitraries for tests.
import fc from 'fast-check';

/**
 * Strings of any code points, lone surrogate halves included: what `fc.string({ unit: 'binary' })`
 * gives, without its cost. That unit maps an index to each of the 1.1 million code points
 * through a reverse table fast-check builds on first use, about 4 s of CPU in each test process
 * that uses it (and several times that on a loaded machine, inside a test's timeout).
 */
export const anyCodePoints = (constraints: { maxLength?: number } = {}) =>
  fc.string({
    ...constraints,
    unit: fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
  });
