// Timestamps as a person reads them: local time, and how long ago.
import { plural } from './plural.js';

const UNITS: Array<[string, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "3 minutes ago", "just now", "in 2 hours". */
export function relativeTime(at: Date, now: Date = new Date()): string {
  const diff = now.getTime() - at.getTime();
  const size = Math.abs(diff);
  if (size < 10_000) return 'just now';
  for (const [unit, ms] of UNITS) {
    if (size >= ms) {
      const amount = plural(Math.floor(size / ms), unit);
      return diff >= 0 ? `${amount} ago` : `in ${amount}`;
    }
  }
  return 'just now';
}

/** "2026-11-22 03:12 (3 minutes ago)" in the local time zone; an unparsable value as it came. */
export function localTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
  return `${local} (${relativeTime(at, now)})`;
}
