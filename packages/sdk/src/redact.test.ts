// The redactor against every spelling of the key a hostile server might echo, judged by a detector
// that decodes what it finds (packages/test-utils/src/key-echoes.ts) rather than by the redactor's own forms.
import { keyEchoes, keyLeaks } from '@profile-articles/test-utils/key-echoes';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact.js';

const KEY = 'sk-test-0123456789abcdef';

// Keys as the SDK takes them: 8 or more printable ASCII characters.
const apiKey = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  minLength: 8,
  maxLength: 48,
});
const noise = fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes));
// Text around an echo, odd Unicode included.
const around = fc.string({ unit: 'grapheme', maxLength: 8 });

describe('createRedactor', () => {
  it('the detector finds every echo before redaction (so that its silence after means something)', () => {
    for (const [name, echo] of Object.entries(keyEchoes(KEY)))
      expect(keyLeaks(echo, KEY), name).not.toEqual([]);
  });

  it('text: no echo of the key survives, in any spelling', () => {
    const redact = createRedactor(KEY);
    for (const [name, echo] of Object.entries(keyEchoes(KEY))) {
      const out = redact.text(`detail: ${echo} (request 42)`);
      expect(keyLeaks(out, KEY), name).toEqual([]);
      expect(out, name).toContain('[redacted]');
      expect(out, name).toContain('(request 42)');
    }
  });

  it('parse and json: the same inside JSON, escaped or not, in values and in names', () => {
    const redact = createRedactor(KEY);
    for (const [name, echo] of Object.entries(keyEchoes(KEY))) {
      const body = JSON.stringify({ detail: echo, [echo]: [echo], credits: 5 });
      for (const out of [JSON.stringify(redact.parse(body)), JSON.stringify(redact.json(JSON.parse(body)))]) {
        expect(keyLeaks(JSON.parse(out).detail, KEY), name).toEqual([]);
        expect(keyLeaks(Object.keys(JSON.parse(out)).join(' '), KEY), name).toEqual([]);
        expect(JSON.parse(out).credits).toBe(5);
      }
    }
  });

  it('any key, base64 or base64url of it at any alignment within other bytes, hex in either case', () => {
    fc.assert(
      fc.property(
        apiKey,
        noise,
        noise,
        fc.constantFrom('base64', 'base64url', 'hex', 'HEX'),
        around,
        around,
        (key, before, after, encoding, left, right) => {
          const bytes = Buffer.concat([before, Buffer.from(key), after]);
          const encoded =
            encoding === 'HEX'
              ? bytes.toString('hex').toUpperCase()
              : bytes.toString(encoding as BufferEncoding);
          const out = createRedactor(key).text(`${left}${encoded}${right}`);
          expect(keyLeaks(out, key)).toEqual([]);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('any key split by an escape sequence or a control character', () => {
    const splitter = fc.constantFrom(
      '\u001b[0m',
      '\u001b[31;1m',
      '\u001b]8;;https://x\u001b\\',
      '\u009b2K',
      '\u009b',
      '\u001b',
      '\u0000',
      '\u007f',
      '\u0085',
      '\u200b',
      '\u202e',
      '\ufeff',
    );
    fc.assert(
      fc.property(apiKey, fc.nat(), splitter, around, around, (key, at, cut, left, right) => {
        const i = 1 + (at % (key.length - 1));
        const out = createRedactor(key).text(`${left}${key.slice(0, i)}${cut}${key.slice(i)}${right}`);
        expect(keyLeaks(out, key)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves text that holds no spelling of the key as it is, controls and all', () => {
    const redact = createRedactor(KEY);
    const text = 'keep-alive \u001b[1mbold\u001b[0m c2stdGVzd 736b2d74657374 sk-test-0123456789abcde';
    expect(redact.text(text)).toBe(text);
    expect(redact.parse(JSON.stringify({ text }))).toEqual({ text });
  });
});
