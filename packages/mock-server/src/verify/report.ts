// What a verify run found: one record per check, the credits it spent, and the two ways
// of showing it (a table for people, one JSON value for machines). A report holds the
// server's text (what a check got: an excerpt of a body, a content-type, a Retry-After), so
// the table shows each cell as one line without control characters, and the JSON writes DEL,
// C1 and bidirectional controls as \u escapes (the same value, the server's text as sent).
import { createRedactor } from '@profile-articles/sdk/internal';
import { safeJson, terminalSafe } from '@profile-articles/sdk/internal/terminal';

export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'inconclusive';

export interface CheckResult {
  /** Stable identifier, e.g. `jobs.missing-404`. */
  id: string;
  /** The endpoint as the contract names it, e.g. `GET /api/v1/jobs/{job_id}`. */
  endpoint: string;
  /** What was checked, in words. */
  name: string;
  status: CheckStatus;
  expected?: string;
  got?: string;
  /** Why a check was skipped or inconclusive. */
  reason?: string;
}

export interface VerifyReport {
  origin: string;
  checks: CheckResult[];
  credits_spent: number;
  spend_limit: number;
  /** Set when the origin stopped answering: the run ended early. */
  unreachable?: string;
  /** Set when verify's own run budget ran out (limits.ts): the checks after it were not run. */
  out_of_time?: string;
  /** Set when the key was refused (401 on the balance): nothing else ran. */
  key_refused?: true;
  summary: Record<CheckStatus, number>;
}

export function summarize(checks: readonly CheckResult[]): Record<CheckStatus, number> {
  const summary = { passed: 0, failed: 0, skipped: 0, inconclusive: 0 };
  for (const check of checks) summary[check.status]++;
  return summary;
}

/**
 * 0 when every check that ran passed (inconclusive is not a failure), 1 otherwise or when the
 * run did not finish (unreachable, out of time), 4 for a refused key.
 */
export function exitCodeOf(report: VerifyReport): 0 | 1 | 4 {
  if (report.key_refused) return 4;
  return report.unreachable || report.out_of_time || report.summary.failed > 0 ? 1 : 0;
}

const MARK: Record<CheckStatus, string> = {
  passed: 'PASS',
  failed: 'FAIL',
  skipped: 'SKIP',
  inconclusive: 'INCONCLUSIVE',
};

function detailOf(check: CheckResult): string {
  if (check.status === 'failed') return `expected ${check.expected ?? '?'}, got ${check.got ?? '?'}`;
  return check.reason ?? '';
}

/** A plain-text table: status, endpoint, check, and for anything but a pass, why. */
export function formatTable(report: VerifyReport): string {
  const rows = report.checks.map((check) =>
    [MARK[check.status], check.endpoint, check.name, detailOf(check)].map((cell) => terminalSafe(cell)),
  );
  const widths = [0, 1, 2].map((col) => Math.max(...rows.map((row) => row[col]!.length), 0));
  // The status column is as wide as its widest label, so the columns sit in the same
  // place in every run (and in the docs), whether or not a run had an INCONCLUSIVE.
  widths[0] = Math.max(...Object.values(MARK).map((mark) => mark.length));
  const lines = rows.map((row) =>
    row
      .map((cell, col) => (col < 3 ? cell.padEnd(widths[col]!) : cell))
      .join('  ')
      .trimEnd(),
  );
  const { passed, failed, skipped, inconclusive } = report.summary;
  lines.push('');
  if (report.unreachable) lines.push(`Stopped: ${terminalSafe(report.unreachable)}`);
  if (report.out_of_time) lines.push(`Stopped: ${terminalSafe(report.out_of_time)}`);
  if (report.key_refused) lines.push('Stopped: the API key was refused (401)');
  lines.push(
    `${passed} passed, ${failed} failed, ${skipped} skipped, ${inconclusive} inconclusive against ${terminalSafe(report.origin)}`,
  );
  lines.push(`Credits spent: ${report.credits_spent} (limit --spend ${report.spend_limit})`);
  return lines.join('\n');
}

/** The report as one JSON value: the server's text as it sent it, with no DEL, C1 or bidi control raw. */
export const formatJson = (report: VerifyReport): string => safeJson(report, 2);

/**
 * Every string of the report with the key blotted out, in every spelling a server may echo it
 * in (as is, URL-encoded, base64, hex, split by escape sequences): the SDK's redactor.
 */
export const redactReport = (report: VerifyReport, secret: string): VerifyReport =>
  createRedactor(secret).json(report);
