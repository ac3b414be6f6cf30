import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatIds } from './flat-ids.js';

// A full collection on demand, so the heap holds only what the test keeps.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Heap bytes per id, after a full collection, for 20,000 ids kept alive. */
function bytesPerId(newId: () => string): number {
  const kept: string[] = new Array(20_000);
  collect();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < kept.length; i++) kept[i] = newId();
  collect();
  const after = process.memoryUsage().heapUsed;
  expect(new Set(kept).size).toBe(kept.length);
  return (after - before) / kept.length;
}

describe('flatIds', () => {
  it('gives the ids it is given, unchanged', () => {
    const ids = ['00000000-0000-4000-8000-000000000000', 'seeded-1'];
    const next = flatIds(() => ids.shift() as string);
    expect([next(), next()]).toEqual(['00000000-0000-4000-8000-000000000000', 'seeded-1']);
  });

  it('gives any string back exactly, odd Unicode and JSON-special characters included', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.constantFrom('"', '\\', '\u2028', '\ud800', '\u0000'),
        (id, odd) => {
          const given = `${odd}${id}${odd}`;
          expect(flatIds(() => given)()).toBe(given);
        },
      ),
    );
  });

  it('keeps a UUID in a fraction of the rope randomUUID makes', () => {
    const rope = bytesPerId(randomUUID);
    const flat = bytesPerId(flatIds(randomUUID));
    // About 490 bytes as a rope and 66 flat (an array slot and a 36-character string).
    expect(rope).toBeGreaterThan(300);
    expect(flat).toBeLessThan(120);
  });
});
