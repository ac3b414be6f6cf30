// The server's asked-for wait is hostile input: whatever the header holds, the reading is a finite
// number of ms from 0 on, or nothing. Seconds and ms read exactly; the three HTTP-date forms read
// to the second; anything else (signs, exponents, hex, words V8's Date.parse would guess a date
// from) is nothing, so the SDK backs off as if no header came.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LONGEST_SERVER_WAIT_MS, retryAfterMs } from './retry-after.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const read = (headers: Record<string, string>) => retryAfterMs(new Headers(headers), NOW);

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const clock = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** The three forms RFC 9110 lets a Retry-After date take. */
const FORMS = {
  imf: (d: Date) => d.toUTCString(),
  rfc850: (d: Date) =>
    `${LONG_DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${pad(d.getUTCFullYear() % 100)} ${clock(d)} GMT`,
  asctime: (d: Date) =>
    `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${clock(d)} ${d.getUTCFullYear()}`,
};

/** Whole seconds, so a formatted date says exactly the instant it was made from. */
const wholeSecond = (min: string, max: string) =>
  fc
    .date({ min: new Date(min), max: new Date(max), noInvalidDate: true })
    .map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000));

/** What a header value can carry: Latin-1 without the line breaks and NUL no header holds. */
const headerChar = fc
  .integer({ min: 0x09, max: 0xff })
  .filter((c) => c !== 0x0a && c !== 0x0d && (c === 0x09 || c >= 0x20))
  .map((c) => String.fromCharCode(c));
const headerText = fc.string({ unit: headerChar, maxLength: 40 });

const isReading = (ms: number | undefined) =>
  ms === undefined || (Number.isFinite(ms) && ms >= 0 && ms <= LONGEST_SERVER_WAIT_MS);

describe('retryAfterMs', () => {
  it('reads delay-seconds exactly', () => {
    fc.assert(
      fc.property(fc.nat(), (seconds) => {
        expect(read({ 'retry-after': String(seconds) })).toBe(seconds * 1000);
      }),
    );
  });

  it('reads any run of digits as a finite wait, however long', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,400}$/), (digits) => {
        const ms = read({ 'retry-after': digits });
        expect(isReading(ms)).toBe(true);
        if (Number(digits) > 60) expect(ms).toBeGreaterThan(60_000);
      }),
    );
    expect(read({ 'retry-after': '9'.repeat(400) })).toBe(LONGEST_SERVER_WAIT_MS);
  });

  it('reads retry-after-ms, fractions included, before Retry-After', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.option(fc.stringMatching(/^[0-9]{1,3}$/)),
        fc.nat(),
        (whole, fraction, other) => {
          const text = fraction === null ? String(whole) : `${whole}.${fraction}`;
          expect(read({ 'retry-after-ms': text, 'retry-after': String(other) })).toBe(Number(text));
        },
      ),
    );
  });

  it.each(Object.entries(FORMS))('reads an HTTP date in %s form to the second', (_form, format) => {
    // rfc850's two-digit year stands for the nearest such year not more than 50 years ahead.
    fc.assert(
      fc.property(wholeSecond('1977-01-01', '2075-12-31'), (date) => {
        expect(read({ 'retry-after': format(date) })).toBe(Math.max(0, date.getTime() - NOW));
      }),
    );
  });

  it('reads a far HTTP date as a long wait, and a past one as none', () => {
    expect(read({ 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' })).toBe(
      Date.parse('9999-12-31T23:59:59Z') - NOW,
    );
    expect(read({ 'retry-after': 'Thu, 01 Jan 1970 00:00:00 GMT' })).toBe(0);
    // Year 0 is year 0 (Date.UTC and V8's Date.parse would make it 1900 or 2000): past all the same.
    expect(read({ 'retry-after': 'Mon, 01 Jan 0000 00:00:00 GMT' })).toBe(0);
  });

  it.each([
    '-5',
    '-0',
    '+5',
    '1e3',
    '1e400',
    '0x10',
    'Infinity',
    'NaN',
    '5 s',
    '.5',
    '5.',
    'soon',
    // V8's Date.parse reads these as dates in 2001; an HTTP date they are not.
    'x 5',
    '1 2',
    'tomorrow 3',
    // Not a day of that month, not a time of day, not in the case HTTP dates are written.
    'Sat, 31 Feb 2026 00:00:00 GMT',
    'Sun, 01 Mar 2026 24:00:00 GMT',
    'sun, 01 mar 2026 12:00:00 gmt',
    'Sun, 01 Mar 2026 12:00:00 UTC',
  ])('reads %j as nothing', (value) => {
    expect(read({ 'retry-after': value })).toBeUndefined();
    expect(read({ 'retry-after-ms': value })).toBeUndefined();
  });

  it('reads a value with a stray character as nothing', () => {
    const valid = fc.oneof(fc.nat().map(String), wholeSecond('1970-01-01', '9999-12-31').map(FORMS.imf));
    const stray = fc.constantFrom('@', '!', '%', ';', '=', '\u00e9', '\u00a0', '\u0085', '\u00b2', '\u00bd');
    fc.assert(
      fc.property(valid, stray, fc.nat(), (value, char, at) => {
        const i = at % (value.length + 1);
        const broken = `${value.slice(0, i)}${char}${value.slice(i)}`;
        expect(read({ 'retry-after': broken })).toBeUndefined();
      }),
    );
  });

  it('reads any header text as nothing or a finite wait from 0 on', () => {
    fc.assert(
      fc.property(headerText, headerText, (ms, after) => {
        expect(isReading(read({ 'retry-after-ms': ms, 'retry-after': after }))).toBe(true);
        expect(isReading(read({ 'retry-after': after }))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is nothing when neither header came', () => {
    expect(read({})).toBeUndefined();
    expect(read({ 'retry-after': '  ' })).toBeUndefined();
  });
});
