// Probes a rule-breaking server could charge for, and how their cost is judged. Each runs
// only when what is left of --spend covers its allowance (budget.ts); what it cost is the
// balance drop around it (or what the answer claims, when that is more). A drop above the
// allowance, a drop the answer does not account for, or a balance that cannot be read is a
// failed check and stops every paid probe after it: so a server that breaks the rules can
// overrun --spend by at most that one charge.
import { allowance, creditsText, type PriceKind } from './budget.js';
import { objectBody, type RunContext, record, skip } from './context.js';
import type { EndpointName } from './contract.js';
import { balance, fellText, type Measured, measureBalance } from './measure.js';
import type { Answer } from './probe.js';
import type { CheckResult } from './report.js';

type Verdict = Pick<CheckResult, 'status' | 'expected' | 'got' | 'reason'>;

interface PaidProbe {
  endpoint: EndpointName;
  id: string;
  name: string;
  /** The price it is budgeted at: what it could cost on a server that broke the rule under test. */
  costs: PriceKind;
  /** Says what could cost it, for the skip reason. */
  what: string;
  /** False for a replay: the answer repeats the original charge, not a new one. */
  newCharge?: boolean;
  /** The check records its own row that the balance fell by this; no `.charge` row repeats it. */
  ownDropRow?: number;
}

/** A paid probe's answer and what it cost. */
export interface Charge extends Measured<Answer> {
  /** Credits verify counted as spent for it. */
  counted: number;
}

interface Claim {
  credits: number;
  /** How the answer said it, for a report. */
  said: string;
}

/** What an answer says it charged: `credits_charged` of a 2xx; nothing for anything else. */
function claimOf(answer: Answer, newCharge: boolean): Claim {
  if (!newCharge) return { credits: 0, said: 'a replay charges nothing new' };
  if (answer.status >= 300) return { credits: 0, said: `a ${answer.status} answer charges nothing` };
  const charged = objectBody(answer).credits_charged;
  return Number.isInteger(charged)
    ? { credits: charged as number, said: `credits_charged ${charged}` }
    : { credits: 0, said: 'the answer has no credits_charged' };
}

const SPEND_NAME = 'the balance falls by no more than verify allowed for';
const CHARGE_NAME = 'the balance falls by what the answer charged';

/** Counts what the probe cost and records what cannot be trusted about it. */
function settle(ctx: RunContext, probe: PaidProbe, price: number, measured: Measured<Answer>): Charge {
  const claim = claimOf(measured.result, probe.newCharge !== false);
  const spendRow = { id: `${probe.id}.spend`, endpoint: probe.endpoint, name: SPEND_NAME };
  const { drop, quiet } = measured;
  if (drop === undefined) {
    // Not measured: count the most it was allowed to cost, and trust no later charge either.
    const counted = Math.max(claim.credits, price);
    ctx.budget.spend(counted);
    const got = 'the balance could not be read';
    record(ctx, { ...spendRow, status: 'failed', expected: 'the balance readable around the call', got });
    ctx.budget.stop(`the balance could not be read around ${probe.id}`);
    return { ...measured, counted };
  }
  // The claim counts only when it is more: a balance that does not move is no proof of a free call.
  const counted = Math.max(drop, claim.credits, 0);
  ctx.budget.spend(counted);
  if (drop > price) {
    const verdict: Verdict = quiet
      ? { status: 'failed', expected: `at most ${creditsText(price)}`, got: fellText(drop) }
      : {
          status: 'inconclusive',
          reason: `${fellText(drop)}, more than ${price}; other spending on the account moved the balance meanwhile`,
        };
    record(ctx, { ...spendRow, ...verdict });
    ctx.budget.stop(`${probe.id} cost ${creditsText(drop)}, more than the ${price} it was allowed`);
  }
  if (quiet && drop !== claim.credits) {
    if (probe.ownDropRow !== claim.credits) {
      const expected = `the balance to fall by ${claim.credits} (${claim.said})`;
      record(ctx, {
        id: `${probe.id}.charge`,
        endpoint: probe.endpoint,
        name: CHARGE_NAME,
        status: 'failed',
        expected,
        got: fellText(drop),
      });
    }
    ctx.budget.stop(`${probe.id}: ${fellText(drop)} where the answer charged ${claim.credits}`);
  }
  return { ...measured, counted };
}

/**
 * Runs `send` between balance reads when paid probes may still run and what is left of
 * --spend covers the probe's allowance; records a skip and resolves undefined otherwise.
 */
export async function paidProbe(
  ctx: RunContext,
  probe: PaidProbe,
  send: () => Promise<Answer>,
): Promise<Charge | undefined> {
  const price = allowance(ctx.pricing, probe.costs);
  const { budget } = ctx;
  let refusal: string | undefined;
  if (budget.stoppedBy) refusal = `paid probes stopped: ${budget.stoppedBy}`;
  else if (price > budget.remaining) {
    refusal = `${probe.what} could cost ${creditsText(price)}; --spend leaves ${budget.remaining}`;
  }
  if (refusal) {
    skip(ctx, probe.endpoint, probe.id, probe.name, refusal);
    return undefined;
  }
  // An origin that stops answering mid-probe ends the run; what it took is still counted.
  const measured = await measureBalance(ctx, send, (drop) => budget.spend(drop ?? price));
  return settle(ctx, probe, price, measured);
}

/**
 * Free checks, measured as a group: a server should charge nothing for them, and whatever it
 * did charge is counted, fails `<group>.no-charge` and stops the paid probes.
 */
export async function freeChecks(ctx: RunContext, group: string, run: () => Promise<void>): Promise<void> {
  const measured = await measureBalance(ctx, run, (drop) => ctx.budget.spend(drop ?? 0));
  const { drop, quiet } = measured;
  if (drop === undefined || drop <= 0) return;
  ctx.budget.spend(drop);
  if (!quiet) return;
  record(ctx, {
    id: `${group}.no-charge`,
    endpoint: 'getBalance',
    name: `the ${group} checks charge nothing`,
    status: 'failed',
    expected: 'the balance to fall by 0',
    got: fellText(drop),
  });
  ctx.budget.stop(`the ${group} checks cost ${creditsText(drop)}`);
}

/** Whether the balance fell by exactly `expected`; inconclusive when others moved it too. */
function dropVerdict(expected: number, { drop, quiet }: Measured<unknown>): Verdict {
  if (drop === expected) return { status: 'passed' };
  if (drop === undefined) return { status: 'inconclusive', reason: 'the balance could not be read' };
  const got = fellText(drop);
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

/**
 * A failed or cancelled job gives its credits back: verify gives budget back only for the
 * rise the balance shows (up to what it counted for the job), never for the job's word.
 * A missing refund fails `<prefix>.refund.balance`; a refund seen records nothing new.
 */
export async function judgeRefund(ctx: RunContext, prefix: string, charge: Charge): Promise<void> {
  const now = await balance(ctx);
  const again = await balance(ctx);
  if (charge.after === undefined || now === undefined) return;
  const rise = now - charge.after;
  ctx.budget.giveBack(Math.min(rise, charge.counted));
  const taken = charge.drop ?? charge.counted;
  if (rise >= taken) return;
  const got = rise >= 0 ? `the balance rose by ${rise}` : `the balance fell by ${-rise}`;
  const base = {
    id: `${prefix}.refund.balance`,
    endpoint: 'getJob',
    name: 'the refund shows in the balance',
  } as const;
  if (now === again)
    record(ctx, { ...base, status: 'failed', expected: `the balance to rise by ${taken}`, got });
  else {
    const reason = `${got}, expected ${taken}; other spending on the account moved the balance meanwhile`;
    record(ctx, { ...base, status: 'inconclusive', reason });
  }
}
