// Waits a hostile server asks for, for the hostile-peer harness (scripted-server.ts): each form
// of "come back much later" a 429 can carry, and a watch for the symptom of one slipping through
// (Node runs a timer set past 2^31 − 1 ms after 1 ms, and warns on the next tick).
import { afterEach, beforeEach } from 'vitest';
import { reply, type Step } from './scripted-server.js';

/** Far-future waits, each above the SDK's default `maxRetryDelayMs` (60 s), by header form. */
export const ABSURD_WAITS: ReadonlyArray<readonly [name: string, headers: Record<string, string>]> = [
  ['Retry-After: 99999999', { 'retry-after': '99999999' }],
  ['a 400-digit Retry-After', { 'retry-after': '9'.repeat(400) }],
  ['retry-after-ms: 99999999999', { 'retry-after-ms': '99999999999' }],
  [
    'an HTTP date ten years on',
    { 'retry-after': new Date(Date.now() + 10 * 365 * 86_400_000).toUTCString() },
  ],
];

/** A 429 with `{detail}` and the given headers. */
export const tooManyRequests = (headers: Record<string, string>): Step =>
  reply(429, { detail: 'slow down' }, headers);

/** Call in a describe: collects this process's warnings during each test. */
export function watchTimerOverflows() {
  const seen: Error[] = [];
  const listener = (warning: Error) => seen.push(warning);
  beforeEach(() => {
    seen.length = 0;
    process.on('warning', listener);
  });
  afterEach(() => {
    process.off('warning', listener);
  });
  return {
    /** The TimeoutOverflowWarnings so far, once any pending one has been emitted. */
    async overflows(): Promise<Error[]> {
      await new Promise((resolve) => setImmediate(resolve));
      return seen.filter((warning) => warning.name === 'TimeoutOverflowWarning');
    },
  };
}
