// --log: one line per request, as Prism and WireMock print them: the mock's time, the account,
// method, path, status, credits moved, request id and duration. Every part a request or a
// config chose (the path, the account id) is made one safe line (terminalSafe) and has each
// configured API key redacted in every spelling: a key sent in a path never reaches the log.
// The status alone is painted, after that, so only the mock's own colour codes reach a terminal.
import { createRedactor } from '@profile-articles/sdk/internal';
import { terminalSafe } from '@profile-articles/sdk/internal/terminal';

/** What the node adapter hands over for each answered (or dropped) request. */
export interface RequestLogEntry {
  /** The mock's clock when the answer went out. */
  at: number;
  accountId: string | undefined;
  method: string;
  /** The request target's path, its query left out (a query may carry anything). */
  path: string;
  /** 0 when the connection was dropped without an answer (a `reset` fault). */
  status: number;
  /** How the account's balance moved while the request was handled. */
  credits: number;
  requestId: string | undefined;
  durationMs: number;
}

/** Paints a status: the bin's ANSI colours on a terminal, the CLI's styles, or nothing. */
export type StatusPainter = (status: number, text: string) => string;

const ANSI: Record<string, number> = { 2: 32, 3: 36, 4: 33, 5: 31 };

/** Green 2xx, cyan 3xx, yellow 4xx, red 5xx and dropped. */
export const ansiStatus: StatusPainter = (status, text) =>
  `\u001b[${ANSI[String(status)[0] as string] ?? 31}m${text}\u001b[39m`;

export const plainStatus: StatusPainter = (_status, text) => text;

/** `keys`: every configured API key and the admin token, redacted from whatever a request wrote. */
export function createRequestLine(
  keys: readonly string[],
  paint: StatusPainter,
): (entry: RequestLogEntry) => string {
  const redactors = keys.map(createRedactor);
  const safe = (text: string) => terminalSafe(redactors.reduce((out, redact) => redact.text(out), text));
  return (entry) => {
    const credits = entry.credits > 0 ? `+${entry.credits}` : String(entry.credits);
    const status = entry.status === 0 ? 'reset' : String(entry.status);
    return [
      new Date(entry.at).toISOString(),
      safe(entry.accountId ?? '-'),
      safe(entry.method),
      safe(entry.path),
      paint(entry.status, status),
      credits,
      safe(entry.requestId ?? '-'),
      `${entry.durationMs.toFixed(1)}ms`,
    ].join(' ');
  };
}
