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

  // An attack trial: lower-case hex, every byte encoded and Python's quote() went through,
  // where only encodeURIComponent's spelling was scrubbed. Any text that percent-decodes to the
  // key goes, whole: any subset of its bytes encoded, hex in either case, `+` for a space. Keys
  // as the mock takes them (any text of 8 characters or more) as well as the SDK's.
  it('any key, odd Unicode and spaces included, with any subset of its bytes percent-encoded in any hex case', () => {
    const mockKey = fc.string({
      unit: fc.oneof(
        fc.constantFrom(' ', '+', '%', '/', '~', 'é', 'ß', '☃', '𝔘', '\u0301', '\u200b', 'ﬀ', 'İ'),
        fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
        fc
          .constant('grapheme' as const)
          .chain(() => fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })),
      ),
      minLength: 8,
      maxLength: 24,
    });
    const spelling = fc.array(
      fc.record({
        encode: fc.boolean(),
        upper: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        plus: fc.boolean(),
      }),
      {
        minLength: 24 * 2,
        maxLength: 24 * 2,
      },
    );
    fc.assert(
      fc.property(fc.oneof(apiKey, mockKey), spelling, around, around, (key, choices, left, right) => {
        const spelled = [...key]
          .map((char, i) => {
            const { encode, upper, plus } = choices[i]!;
            if (char === ' ' && plus) return '+';
            if (!encode) return char;
            const hex = [...Buffer.from(char).toString('hex')].map((digit, j) =>
              upper[j % 8] ? digit.toUpperCase() : digit,
            );
            return hex.join('').replace(/../g, '%$&');
          })
          .join('');
        const redact = createRedactor(key);
        const out = redact.text(`${left}${spelled}${right}`);
        expect(keyLeaks(out, key)).toEqual([]);
        expect(out).toContain('[redacted]');
        const parsed = redact.parse(JSON.stringify({ [spelled]: spelled })) as Record<string, string>;
        expect(keyLeaks(JSON.stringify(parsed), key)).toEqual([]);
        expect(keyLeaks(redact.name(spelled.toLowerCase()), key.toLowerCase())).toEqual([]);
        for (const encoding of ['hex', 'base64', 'base64url'] as const)
          expect(keyLeaks(redact.text(Buffer.from(key).toString(encoding)), key)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it("Python's quote() and quote_plus(), and a spelling that is only part of the key, as the attack sent them", () => {
    const key = 'sk_live/Üb3r+k3y ~!*()';
    const redact = createRedactor(key);
    // urllib.parse.quote(key), quote(key, safe=''), quote_plus(key), and hex in lower case.
    for (const spelled of [
      'sk_live/%C3%9Cb3r%2Bk3y%20~%21%2A%28%29',
      'sk_live%2F%C3%9Cb3r%2Bk3y%20~%21%2A%28%29',
      'sk_live%2F%C3%9Cb3r%2Bk3y+~%21%2A%28%29',
      '%73%6b%5f%6c%69%76%65%2f%c3%9c%62%33%72%2b%6b%33%79%20%7e%21%2a%28%29',
    ]) {
      expect(redact.text(`GET /v1?key=${spelled}&x=1`)).toBe('GET /v1?key=[redacted]&x=1');
    }
    // Not the key: a byte short, or a different byte, stays as it is.
    for (const near of ['sk_live/%C3%9Cb3r%2Bk3y%20~%21%2A%28', 'sk_live/%C3%9Cb3r%2Bk3y%20~%21%2A%28%28'])
      expect(redact.text(near)).toBe(near);
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

  it('any key with invisible characters, controls, escape sequences or overwrites between any of its characters', () => {
    // Unicode's Default_Ignorable_Code_Point ranges (written out here, not taken from the SDK).
    const ignorableRanges: Array<[number, number]> = [
      [0xad, 0xad],
      [0x34f, 0x34f],
      [0x61c, 0x61c],
      [0x115f, 0x1160],
      [0x17b4, 0x17b5],
      [0x180b, 0x180f],
      [0x200b, 0x200f],
      [0x202a, 0x202e],
      [0x2060, 0x206f],
      [0x3164, 0x3164],
      [0xfe00, 0xfe0f],
      [0xfeff, 0xfeff],
      [0xffa0, 0xffa0],
      [0x1bca0, 0x1bca3],
      [0x1d173, 0x1d17a],
      [0xe0000, 0xe0fff],
    ];
    const ignorable = fc
      .constantFrom(...ignorableRanges)
      .chain(([from, to]) => fc.integer({ min: from, max: to }))
      .map((code) => String.fromCodePoint(code));
    const c0 = fc
      .integer({ min: 0, max: 0x1f })
      .filter((code) => code !== 0x09 && code !== 0x0a)
      .map((code) => String.fromCharCode(code));
    const piece = fc.oneof(
      ignorable,
      c0,
      fc.constantFrom(
        '\u001b[0m',
        '\u001b]2;x\u0007',
        '\u009b1m',
        '\u007f',
        '\u0300',
        '\u20dd',
        'Z\b',
        '  \b\b',
      ),
    );
    const between = fc.array(
      fc.option(fc.array(piece, { minLength: 1, maxLength: 3 }).map((p) => p.join(''))),
      {
        minLength: 47,
        maxLength: 47,
      },
    );
    fc.assert(
      fc.property(apiKey, between, around, around, (key, gaps, left, right) => {
        const spread = [...key].map((char, i) => (i === 0 ? char : `${gaps[i - 1] ?? ''}${char}`)).join('');
        const out = createRedactor(key).text(`${left}${spread}${right}`);
        expect(keyLeaks(out, key)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('any key, each character escaped its own way, percent-encoded again up to 3 times, white space between', () => {
    const hex = (c: string, n: number) => c.charCodeAt(0).toString(16).padStart(n, '0');
    const escaped = fc.constantFrom(
      (c: string) => c,
      (c: string) => `&#x${hex(c, 1)};`,
      (c: string) => `&#${c.charCodeAt(0)};`,
      (c: string) => `%u${hex(c, 4)}`,
      (c: string) => `\\u${hex(c, 4)}`,
      (c: string) => `\\x${hex(c, 2)}`,
      (c: string) => `%${hex(c, 2)}`,
    );
    const gap = fc.constantFrom('', '', '', ' ', '\t', '\n', '\r\n', '\u00a0');
    fc.assert(
      fc.property(
        apiKey,
        fc.array(fc.tuple(escaped, gap), { minLength: 64, maxLength: 64 }),
        fc.nat({ max: 3 }),
        around,
        around,
        (key, choices, again, left, right) => {
          let spelled = [...key]
            .map((c, i) => choices[i]![0](c) + (i < key.length - 1 ? choices[i]![1] : ''))
            .join('');
          for (let i = 0; i < again; i++) spelled = spelled.replace(/%/g, '%25');
          const redact = createRedactor(key);
          const out = redact.text(`${left}${spelled}${right}`);
          expect(keyLeaks(out, key)).toEqual([]);
          expect(keyLeaks(JSON.stringify(redact.parse(JSON.stringify({ detail: spelled }))), key)).toEqual(
            [],
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('base64 of any key wrapped at any column, by LF or CR LF', () => {
    fc.assert(
      fc.property(
        apiKey,
        fc.integer({ min: 1, max: 76 }),
        fc.constantFrom('\n', '\r\n'),
        (key, width, eol) => {
          const wrapped = Buffer.from(`Authorization: Bearer ${key}`)
            .toString('base64')
            .replace(new RegExp(`.{${width}}`, 'g'), `$&${eol}`);
          expect(keyLeaks(createRedactor(key).text(`body:\n${wrapped}`), key)).toEqual([]);
        },
      ),
    );
  });

  it('leaves text that holds no spelling of the key as it is, controls and all', () => {
    const redact = createRedactor(KEY);
    const text = 'keep-alive \u001b[1mbold\u001b[0m c2stdGVzd 736b2d74657374 sk-test-0123456789abcde';
    expect(redact.text(text)).toBe(text);
    expect(redact.parse(JSON.stringify({ text }))).toEqual({ text });
  });

  // A body with an escape (Markdown content has \n) went through JSON.parse's reviver, whose
  // recursion overflowed near 8,000 levels: a read already charged ended in a
  // ResponseValidationError for a body that matched the interface (an attacker's finding).
  it('parse: a body with escapes nested 20,000 deep, the key at the bottom and in a name', () => {
    const redact = createRedactor(KEY);
    const depth = 20_000;
    const body = `{"content":"a\\nb","nested":${'{"a":['.repeat(depth)}"${KEY}",{"${KEY}":1,"__proto__":"${KEY}"}${']}'.repeat(depth)}}`;
    const parsed = redact.parse(body) as { content: string; nested: unknown };
    expect(parsed.content).toBe('a\nb');
    let node: unknown = parsed.nested;
    for (let i = 1; i < depth; i++) node = (node as { a: unknown[] }).a[0];
    const [text, named] = (node as { a: [string, Record<string, unknown>] }).a;
    expect(text).toBe('[redacted]');
    expect(Object.keys(named)).toEqual(['[redacted]', '__proto__']);
    expect(Object.getPrototypeOf(named)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(named, '__proto__')?.value).toBe('[redacted]');
  });
});
