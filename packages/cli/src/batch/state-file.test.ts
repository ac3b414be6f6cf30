// The state file takes back any torn prefix of what it wrote, and refuses, untouched, what it did not write.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anyCodePoints } from '@profile-articles/test-utils/arbitraries';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import { openStateFile } from './state-file.js';
import type { Operation, StateRecord } from './state-records.js';

const dir = mkdtempSync(join(tmpdir(), 'pa-state-file-'));
let files = 0;
const freshPath = () => join(dir, `state-${files++}.jsonl`);

/** A state file as batch writes it, through the same code. */
function writtenState(operation: Operation, at: Date, profiles: string[]): Buffer {
  const path = freshPath();
  const state = openStateFile(path);
  state.append({ type: 'batch', operation, at: at.toISOString() });
  for (const [i, profile] of profiles.entries()) {
    state.append({ type: 'send', profile_id: profile, idempotency_key: `key-${i}`, at: at.toISOString() });
    state.append({ type: 'job', profile_id: profile, job_id: `job-${i}`, credits_charged: 100, at: '…' });
    state.append({ type: 'end', profile_id: profile, status: 'succeeded', credits_charged: 100, at: '…' });
  }
  state.close();
  return readFileSync(path);
}

// Profile ids as a list may hold them: any Unicode, multi-byte characters included, no newline.
const profileId = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
  .filter((s) => !/[\r\n]/.test(s));
const realState = fc
  .tuple(
    fc.constantFrom<Operation>('generate', 'update', 'read'),
    fc.date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2999-12-31T23:59:59Z'),
      noInvalidDate: true,
    }),
    fc.array(profileId, { maxLength: 4 }),
  )
  .map(([operation, at, profiles]) => writtenState(operation, at, profiles));

function refusal(path: string): unknown {
  try {
    openStateFile(path).close();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('openStateFile', () => {
  it('takes every torn prefix of a real state file: the whole lines are its records, the rest is cut off', () => {
    fc.assert(
      fc.property(realState, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), (bytes, cuts) => {
        for (const cut of cuts) {
          const torn = bytes.subarray(0, cut % (bytes.length + 1));
          const path = freshPath();
          writeFileSync(path, torn);
          const state = openStateFile(path);
          state.close();
          const whole = torn.subarray(0, torn.lastIndexOf(0x0a) + 1);
          const lines = whole.toString('utf8').split('\n').filter(Boolean);
          expect(state.records).toEqual(lines.map((line) => JSON.parse(line) as StateRecord));
          expect(readFileSync(path)).toEqual(whole);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('refuses, byte for byte untouched, a file whose first line is no batch record', () => {
    const foreign = fc.oneof(
      // Text or bytes that start with anything but the record's opening brace.
      fc.uint8Array({ minLength: 1, maxLength: 64 }).filter((b) => b[0] !== 0x7b),
      anyCodePoints({ maxLength: 64 })
        .filter((s) => s.length > 0 && !s.startsWith('{'))
        .map((s) => Buffer.from(s)),
      // Any JSON object but a batch record, with or without its newline.
      fc
        .tuple(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean())
        .filter(([value]) => value.type !== 'batch')
        .map(([value, newline]) => Buffer.from(`${JSON.stringify(value)}${newline ? '\n' : ''}`)),
    );
    fc.assert(
      fc.property(foreign, (bytes) => {
        const path = freshPath();
        writeFileSync(path, bytes);
        const error = refusal(path);
        expect(error).toBeInstanceOf(CliError);
        expect((error as CliError).exitCode).toBe(ExitCode.Usage);
        expect((error as CliError).message).toContain(path);
        expect((error as CliError).message).not.toContain('\n');
        expect(readFileSync(path)).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 100 },
    );
  });
});
