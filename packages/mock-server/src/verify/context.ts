// What every check of a run shares: the options, the probe, the account's terms, the
// spending budget, and the record of results.
import { randomUUID } from 'node:crypto';
import type { Pricing } from '@profile-articles/sdk/schemas';
import type { Budget } from './budget.js';
import { type EndpointName, endpointLabel, judge, requestLine } from './contract.js';
import type { VerifyLimits } from './limits.js';
import type { Answer, Probe, ProbeRequest } from './probe.js';
import type { CheckResult } from './report.js';

export interface VerifyOptions {
  /** The API's base URL without a trailing slash or `/api/v1` (a path prefix is kept). */
  origin: string;
  apiKey: string;
  /** Most credits the run may spend. Default 0: free checks only. */
  spend: number;
  /** A profile that has an article, for the paid read. */
  profile?: string;
  /** A profile to generate (and then update), when --spend allows. */
  generateProfile?: string;
  checkRateLimit: boolean;
  /** Between polls of a job; the contract advises about 10 s. */
  pollIntervalMs: number;
}

export interface RunContext {
  options: VerifyOptions;
  probe: Probe;
  wait: (ms: number) => Promise<void>;
  /** verify's own bounds: time, body size, polling, Retry-After. */
  limits: VerifyLimits;
  /** The account's terms, defaults filled in; set by the balance check. */
  pricing: Pricing;
  budget: Budget;
  checks: CheckResult[];
}

/** A request to an endpoint by its short name: the contract gives the method and the path. */
export type CallRequest = Omit<ProbeRequest, 'endpoint' | 'method' | 'path'> & {
  params?: Record<string, string>;
};

export function call(ctx: RunContext, endpoint: EndpointName, request: CallRequest = {}): Promise<Answer> {
  const { params, ...rest } = request;
  return ctx.probe({ ...rest, ...requestLine(endpoint, params), endpoint: endpointLabel(endpoint) });
}

export function record(ctx: RunContext, check: Omit<CheckResult, 'endpoint'> & { endpoint: EndpointName }) {
  ctx.checks.push({ ...check, endpoint: endpointLabel(check.endpoint) });
}

/** Judges an answer against the contract and records the verdict; true when it passed. */
export function expectAnswer(
  ctx: RunContext,
  endpoint: EndpointName,
  id: string,
  name: string,
  answer: Answer,
  statuses: number | readonly number[],
): boolean {
  const difference = judge(endpoint, answer, statuses);
  record(ctx, { id, endpoint, name, status: difference ? 'failed' : 'passed', ...difference });
  return !difference;
}

export function skip(ctx: RunContext, endpoint: EndpointName, id: string, name: string, reason: string) {
  record(ctx, { id, endpoint, name, status: 'skipped', reason });
}

/** A value check that is not about an answer's shape: passed, or failed with both sides. */
export function expectEqual(
  ctx: RunContext,
  endpoint: EndpointName,
  id: string,
  name: string,
  expected: unknown,
  got: unknown,
) {
  const same = JSON.stringify(expected) === JSON.stringify(got);
  record(ctx, {
    id,
    endpoint,
    name,
    status: same ? 'passed' : 'failed',
    ...(same ? {} : { expected: String(expected), got: String(got) }),
  });
}

/** A slug no real profile has: probes of missing things must not hit a real one. */
export function unusedSlug(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 12)}`;
}

export function objectBody(answer: Answer): Record<string, unknown> {
  return typeof answer.body === 'object' && answer.body !== null
    ? (answer.body as Record<string, unknown>)
    : {};
}
