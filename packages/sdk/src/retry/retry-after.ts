// The wait a server asks for, read strictly: it is the other side's text, and the SDK sleeps on it.
// Only the forms HTTP defines are read (RFC 9110 §10.2.3: delay-seconds or an HTTP-date), plus the
// `retry-after-ms` some APIs send; V8's Date.parse is not used, because it reads a date out of
// almost anything ("x 5" is 2001). Whether a wait so read is then taken is retry.ts's rule.

/**
 * The longest wait a reading reports (about 285,000 years): a header of 400 digits is read as
 * this instead of Infinity, so the error's `retryAfterSeconds` stays a number. Any wait this long
 * is far above `maxRetryDelayMs`, so it is refused, never waited.
 */
export const LONGEST_SERVER_WAIT_MS = Number.MAX_SAFE_INTEGER;

/** A number of seconds (or of ms): digits, with a fraction allowed. No sign, exponent or hex. */
const DECIMAL = /^[0-9]+(?:\.[0-9]+)?$/;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const DAY_NAME = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY_NAME = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const TIME = '([0-9]{2}):([0-9]{2}):([0-9]{2})';

// The three HTTP-date forms, case-sensitive as RFC 9110 §5.6.7 has them. Groups: day, month,
// year, hours, minutes, seconds (asctime's year comes last; see readHttpDate).
const IMF_FIXDATE = new RegExp(`^${DAY_NAME}, ([0-9]{2}) ${MONTH} ([0-9]{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${LONG_DAY_NAME}, ([0-9]{2})-${MONTH}-([0-9]{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY_NAME} ${MONTH} ([0-9]{2}| [0-9]) ${TIME} ([0-9]{4})$`);

interface DateParts {
  day: string;
  month: string;
  year: number;
  time: string[];
}

/** The fields of an HTTP-date in any of its three forms, or undefined when `text` is none of them. */
function dateParts(text: string, now: number): DateParts | undefined {
  const imf = IMF_FIXDATE.exec(text);
  if (imf) {
    const [, day, month, year, ...time] = imf;
    return { day: day!, month: month!, year: Number(year), time };
  }
  const rfc850 = RFC850_DATE.exec(text);
  if (rfc850) {
    const [, day, month, yy, ...time] = rfc850;
    // A two-digit year more than 50 years ahead is the latest past year with those digits.
    const thisYear = new Date(now).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + Number(yy);
    if (year > thisYear + 50) year -= 100;
    return { day: day!, month: month!, year, time };
  }
  const asctime = ASCTIME_DATE.exec(text);
  if (asctime) {
    const [, month, day, hours, minutes, seconds, year] = asctime;
    return { day: day!.trim(), month: month!, year: Number(year), time: [hours!, minutes!, seconds!] };
  }
  return undefined;
}

/** ms since the epoch of an HTTP-date, or undefined when `text` is not one (31 Feb included). */
function readHttpDate(text: string, now: number): number | undefined {
  const parts = dateParts(text, now);
  if (parts === undefined) return undefined;
  const [hours, minutes, seconds] = parts.time.map(Number) as [number, number, number];
  const day = Number(parts.day);
  const month = MONTHS.indexOf(parts.month);
  if (hours > 23 || minutes > 59 || seconds > 60 || day < 1) return undefined;
  // setUTCFullYear, not Date.UTC: Date.UTC takes years 0 to 99 for 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(parts.year, month, day);
  // A day the month does not have rolls into the next month: not a date.
  if (date.getUTCDate() !== day) return undefined;
  // A leap second (:60) is read as the next minute's start.
  date.setUTCHours(hours, minutes, seconds, 0);
  return date.getTime();
}

/** A decimal's value in ms, `scale` ms to its unit; undefined when `text` is not a decimal. */
function readDecimal(text: string, scale: number): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  return Math.min(Number(text) * scale, LONGEST_SERVER_WAIT_MS);
}

/** Header values as HTTP trims them (spaces and tabs only: no-break space is text). */
const trimmed = (value: string | null) => value?.replace(/^[ \t]+|[ \t]+$/g, '') ?? '';

/**
 * The wait the server asked for, in ms: `retry-after-ms`, else `Retry-After` as seconds or an
 * HTTP date (a past date is 0). A finite number from 0 to LONGEST_SERVER_WAIT_MS, or undefined
 * when neither header says anything readable.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = readDecimal(trimmed(headers.get('retry-after-ms')), 1);
  if (ms !== undefined) return ms;
  const after = trimmed(headers.get('retry-after'));
  const seconds = readDecimal(after, 1000);
  if (seconds !== undefined) return seconds;
  const date = readHttpDate(after, now);
  return date === undefined ? undefined : Math.min(Math.max(0, date - now), LONGEST_SERVER_WAIT_MS);
}
