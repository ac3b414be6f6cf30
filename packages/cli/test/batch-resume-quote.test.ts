// batch's "Resume with:" line is pasted into a shell: whatever the paths, bash must read back
// exactly the arguments batch meant, and run nothing else.
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resumeCommand } from '../src/commands/batch.js';

/** The words bash makes of `command`, one per line (no argument here holds a newline). */
const words = (command: string) =>
  execFileSync('bash', ['-c', `printf '%s\\n' ${command.replace(/^profile-articles batch /, '')}`], {
    encoding: 'utf8',
  })
    .split('\n')
    .slice(0, -1);

describe('resumeCommand', () => {
  it("quotes a path holding ' so that pasting it runs nothing", () => {
    const state = "x'; touch pwned; echo '.jsonl";
    expect(words(resumeCommand('read', 'list.txt', state, {}))).toEqual([
      'read',
      '--from',
      'list.txt',
      '--state',
      state,
    ]);
  });

  it('gives back exactly the arguments, whatever the paths', () => {
    const path = fc
      .string({
        unit: fc.oneof(
          fc.constantFrom("'", '"', '\\', '$', '`', ' ', ';', '!', '*', '(', 'é', '\t'),
          // Any code point but a lone surrogate: a path reaches batch through argv, which Node
          // decodes from UTF-8, so it never holds one (and bash could not give one back).
          fc
            .integer({ min: 1, max: 0x10ffff })
            .filter((cp) => cp < 0xd800 || cp > 0xdfff)
            .map((cp) => String.fromCodePoint(cp)),
        ),
        minLength: 1,
      })
      .filter((p) => !p.includes('\n') && !p.includes('\0'));
    fc.assert(
      fc.property(path, path, fc.option(path, { nil: undefined }), (from, state, out) => {
        const expected = [
          'read',
          '--from',
          from,
          '--state',
          state,
          ...(out === undefined ? [] : ['--out', out]),
        ];
        expect(words(resumeCommand('read', from, state, out === undefined ? {} : { out }))).toEqual(expected);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
    );
    // 40 bash processes, each started and waited for in turn: under a second idle, 69 s in a
    // shuffled run on a loaded machine. The limit is there for a hang.
  }, 240_000);
});
