// --spend as a hard limit: a paid probe runs only when what it could cost at worst fits in
// what is left, and every credit it did cost is counted. Charges are read from the answer
// (`credits_charged`) first and from the balance around the call second.
import { call, objectBody, type RunContext, record, skip } from './context.js';
import type { EndpointName } from './contract.js';
import type { Answer } from './probe.js';
import type { CheckResult } from './report.js';

type Verdict = Pick<CheckResult, 'status' | 'expected' | 'got' | 'reason'>;

export class Budget {
  #spent = 0;
  constructor(readonly limit: number) {}
  get spent(): number {
    return this.#spent;
  }
  get remaining(): number {
    return this.limit - this.#spent;
  }
  covers(worstCase: number): boolean {
    return worstCase <= this.remaining;
  }
  spend(credits: number): void {
    this.#spent += Math.max(0, credits);
  }
  /** A failed or cancelled job gave its reservation back. */
  refund(credits: number): void {
    this.#spent = Math.max(0, this.#spent - credits);
  }
}

/** Why a paid probe did not run. */
function notCovered(ctx: RunContext, worstCase: number, what: string): string {
  const credits = worstCase === 1 ? '1 credit' : `${worstCase} credits`;
  return `${what} could cost ${credits}; --spend leaves ${ctx.budget.remaining}`;
}

/** The account's balance now; undefined when it cannot be read. */
export async function balance(ctx: RunContext): Promise<number | undefined> {
  const answer = await call(ctx, 'getBalance');
  const credits = (answer.body as { credits?: unknown } | null)?.credits;
  return answer.status === 200 && Number.isInteger(credits) ? (credits as number) : undefined;
}

interface Measured<T> {
  result: T;
  /** How far the balance fell across the call; undefined when it could not be read. */
  drop: number | undefined;
  /** False when the balance also moved while nothing of ours ran: other traffic on the account. */
  quiet: boolean;
}

/** Runs `fn` between two pairs of balance reads, so that other spending can be told apart. */
async function measureBalance<T>(ctx: RunContext, fn: () => Promise<T>): Promise<Measured<T>> {
  const first = await balance(ctx);
  const before = await balance(ctx);
  const result = await fn();
  const after = await balance(ctx);
  const settled = await balance(ctx);
  const known = before !== undefined && after !== undefined;
  return {
    result,
    drop: known ? before - after : undefined,
    quiet: known && first === before && after === settled,
  };
}

/** What an answer says it charged: `credits_charged` of a 2xx, else nothing. */
function chargedBy(answer: Answer): number {
  const charged = objectBody(answer).credits_charged;
  return answer.status < 300 && Number.isInteger(charged) ? (charged as number) : 0;
}

interface PaidProbe {
  endpoint: EndpointName;
  id: string;
  name: string;
  /** The most it could cost on a server that broke the rule under test. */
  worstCase: number;
  /** Says what could cost it, for the skip reason. */
  what: string;
  /** False for a replay: the answer repeats the original charge, not a new one. */
  newCharge?: boolean;
}

/**
 * Runs `send` between balance reads when what is left of --spend covers its worst case,
 * and counts what it cost; records a skip and resolves undefined otherwise.
 */
export async function paidProbe(
  ctx: RunContext,
  probe: PaidProbe,
  send: () => Promise<Answer>,
): Promise<Measured<Answer> | undefined> {
  if (!ctx.budget.covers(probe.worstCase)) {
    skip(ctx, probe.endpoint, probe.id, probe.name, notCovered(ctx, probe.worstCase, probe.what));
    return undefined;
  }
  const measured = await measureBalance(ctx, send);
  const charged = probe.newCharge === false ? 0 : chargedBy(measured.result);
  ctx.budget.spend(Math.max(charged, measured.drop ?? 0));
  return measured;
}

/** Whether the balance fell by exactly `expected`; inconclusive when others moved it too. */
function dropVerdict(expected: number, { drop, quiet }: Measured<unknown>): Verdict {
  if (drop === expected) return { status: 'passed' };
  if (drop === undefined) return { status: 'inconclusive', reason: 'the balance could not be read' };
  const got = drop >= 0 ? `the balance fell by ${drop}` : `the balance rose by ${-drop}`;
  if (quiet) return { status: 'failed', expected: `the balance to fall by ${expected}`, got };
  const reason = `${got}, expected ${expected}; other spending on the account moved the balance meanwhile`;
  return { status: 'inconclusive', reason };
}

export function judgeDrop(
  ctx: RunContext,
  endpoint: EndpointName,
  id: string,
  name: string,
  expected: number,
  measured: Measured<unknown>,
): void {
  record(ctx, { id, endpoint, name, ...dropVerdict(expected, measured) });
}
