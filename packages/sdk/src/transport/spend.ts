// What this client has spent, and the `spendLimit` that caps it. A paid call holds its
// worst-case price while it is under way and is refused (SpendLimitError) before it is sent
// when that would take spent + under way past the limit; its answer then says what it cost.
//
// A call's worst case is the highest of the last balance's price, the most this client was
// charged for one like it, and the interface's default.
// The figures come from the answers: a read's and a generate's `credits_charged`, a job's
// `credits_charged` (a failed or cancelled job's 0 is its refund). Where no answer says, the
// worst case counts, so `spent` can be above what the account was charged, never below:
// a read attempt whose answer was lost (a 5xx, a reset, a timeout, an abort) may have been
// charged, and its retry may be charged again; a generate or update whose every attempt was
// lost counts its worst case under its Idempotency-Key until a replay of that key says, unless
// its last attempt was refused (a 402, 404 or 409 comes only for a key none of its attempts used).
// One Idempotency-Key is one charge: its retries and replays never count twice.

import type { CallMeter, RequestSpec, Transport } from '../core/transport-types.js';
import { ApiError, SpendLimitError } from '../errors/errors.js';
import type { ReadResponse } from '../schemas/article.js';
import type { BalanceResponse } from '../schemas/credits.js';
import type { PriceField } from '../schemas/endpoints.js';
import { isTerminalStatus, type Job } from '../schemas/job.js';
import type { Attempt } from './attempt.js';

/** Keys and jobs remembered, each: the oldest is forgotten first (and then counted at worst). */
const REMEMBERED = 1000;

/**
 * What this client counts for one Idempotency-Key or job: the credits, and whether an answer
 * said so (otherwise it is the worst case of a call whose answers were all lost).
 */
type Counted = [credits: number, known: boolean];

type Request = Transport['request'];

const remember = <V>(map: Map<string, V>, key: string, value: V) => {
  map.delete(key);
  if (map.size >= REMEMBERED) map.delete(map.keys().next().value as string);
  map.set(key, value);
};

const isJob = (value: unknown): value is Job => typeof (value as Partial<Job>)?.job_id === 'string';
/** What an answer says was charged (the schemas refuse a negative figure). */
const charged = (value: { credits_charged: number }) => value.credits_charged;

/** Whether a failed attempt may have been charged: anything but a 4xx answer, or a request never sent. */
const mayHaveCharged = (error: unknown, notSent?: boolean) =>
  error instanceof ApiError ? !(error.status >= 400 && error.status < 500) : !notSent;

export function createSpend(limit: number | undefined) {
  let spent = 0;
  let inFlight = 0;
  // The last balance's prices (the interface's defaults until one is seen).
  const prices: Record<PriceField, number> = { read_credits: 1, generation_credits: 100 };
  // The most this client was charged for each, never below the defaults: a balance is the
  // server's word, not a charge, so one that says less (a discount, or a lie) lowers no hold.
  const highest = { ...prices };
  const charge = (field: PriceField, credits: number) => {
    highest[field] = Math.max(highest[field], credits);
    return credits;
  };
  const keys = new Map<string, Counted>();
  const jobs = new Map<string, Counted>();

  function hold(price: number, attempts?: number): void {
    if (limit !== undefined && price > 0 && spent + inFlight + price > limit) {
      throw new SpendLimitError({ limit, spent, inFlight, price }, attempts ? { attempts } : {});
    }
    inFlight += price;
  }
  function count(counted: Counted, credits: number): void {
    spent += credits - counted[0];
    counted[0] = credits;
    counted[1] = true;
  }

  /**
   * A job seen in any answer. What it holds now is what this client counts for it: a failed or
   * cancelled job's 0 gives its credits back; otherwise the count only ever goes up.
   */
  function sawJob(job: Job, counted = jobs.get(job.job_id)): void {
    if (!counted) return;
    const credits = charged(job);
    if (!counted[1] || job.status === 'failed' || job.status === 'cancelled' || credits > counted[0]) {
      count(counted, credits);
    }
    if (isTerminalStatus(job.status)) jobs.delete(job.job_id);
    else remember(jobs, job.job_id, counted);
  }

  function saw(value: unknown): void {
    // Undefined: handed over unread (asResponse()).
    const { pricing } = (value ?? {}) as Partial<BalanceResponse>;
    if (pricing) for (const field in prices) prices[field as PriceField] = pricing[field as PriceField];
    else if (isJob(value)) sawJob(value);
  }

  function open({ idempotencyKey: key }: RequestSpec<unknown>, fields: readonly PriceField[]): CallMeter {
    const price = Math.max(...fields.map((field) => Math.max(prices[field], highest[field])));
    const before = key === undefined ? undefined : keys.get(key);
    // A key answered before cannot charge again; one whose answers were all lost, only the rest.
    let held = before?.[1] ? 0 : Math.max(0, price - (before?.[0] ?? 0));
    hold(held);
    const release = () => {
      inFlight -= held;
      held = 0;
    };
    let settled = false;
    let uncertain = false;
    // A 402 or 404 for a key proves that no request with it did anything: a key that did
    // something is answered with what it did (a replay), before any rule runs.
    let unused = false;
    // A 409 proves less: that none of this call's attempts did anything (one that had would be
    // replayed), not that the key is unused, since the 409 may say another call used it.
    let refused = false;
    // An attempt that may have been charged, by how much no answer says: a read counts its
    // price now (its retry holds it again); a key's worst case counts at the end, if no answer came.
    const unknown = () => {
      if (key !== undefined) uncertain = true;
      else {
        spent += price;
        release();
      }
    };
    return {
      attempt(attempt) {
        // A read has no key: each of its attempts may be charged, so each one holds the price.
        if (key === undefined && held === 0) {
          hold(price, attempt - 1);
          held = price;
        }
      },
      answered(value) {
        // Handed over unread (asResponse()): charged, but by how much only the body says.
        if (value === undefined) return unknown();
        settled = true;
        release();
        if (key === undefined) {
          spent += charge('read_credits', charged(value as ReadResponse));
          return;
        }
        const counted: Counted = keys.get(key) ?? [0, false];
        remember(keys, key, counted);
        if (!isJob(value)) {
          if (!counted[1]) count(counted, charge('read_credits', charged(value as ReadResponse)));
          return;
        }
        // A started job's credits are what a generation or an update costs.
        if (!isTerminalStatus(value.status)) charge('generation_credits', charged(value));
        sawJob(value, counted);
      },
      failed(error, notSent) {
        unused = error instanceof ApiError && (error.status === 402 || error.status === 404);
        refused = error instanceof ApiError && error.status === 409;
        if (mayHaveCharged(error, notSent)) unknown();
      },
      end() {
        release();
        const counted = key === undefined || settled ? undefined : (keys.get(key) ?? [0, false]);
        if (!counted || counted[1]) return;
        if (unused) {
          spent -= counted[0];
          keys.delete(key!);
        } else if (uncertain && !refused) {
          // Every answer was lost: the worst case, until a replay of the key says.
          spent += Math.max(0, price - counted[0]);
          counted[0] = Math.max(price, counted[0]);
          remember(keys, key!, counted);
        }
      },
    };
  }

  return {
    /** Credits charged to this client's calls, net of the refunds it has seen. */
    spent: () => spent,
    /** The transport's request, holding each paid call's worst case until it ends. */
    calls: (request: Request): Request =>
      // A free call goes straight through: nothing to hold, and no promise more per call.
      function metered(spec, call) {
        if (spec.price === undefined) return request(spec, call);
        let meter: CallMeter;
        try {
          meter = open(spec, spec.price);
        } catch (error) {
          return Promise.reject(error); // a SpendLimitError: nothing was sent
        }
        return request({ ...spec, meter }, call).finally(() => meter.end());
      },
    /** The transport's attempt, reporting each attempt of a paid call, and every answer seen. */
    attempts: (attempt: Attempt): Attempt =>
      function metered(spec, info, ...rest) {
        const { meter } = spec;
        if (!meter) {
          // A free call's answer: a balance's prices, or a job whose refund this client counts.
          return attempt(spec, info, ...rest).then((outcome) => {
            if (outcome.kind === 'success') saw(outcome.value.data);
            return outcome;
          });
        }
        try {
          meter.attempt(info.attempt);
        } catch (error) {
          // A read's retry past the limit: a rejection, so that the transport frees its pacing slot.
          return Promise.reject(error);
        }
        return attempt(spec, info, ...rest).then(
          (outcome) => {
            if (outcome.kind === 'failure') meter.failed(outcome.error, outcome.notSent);
            else meter.answered(outcome.value.data);
            return outcome;
          },
          (error: unknown) => {
            // An abort during the attempt: the request may have reached the server.
            meter.failed(error);
            throw error;
          },
        );
      },
  };
}
