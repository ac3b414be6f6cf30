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
// lost counts its worst case under its Idempotency-Key until a replay of that key says.
// A refusal (402, 404, 409) at a call's last attempt says that none of its attempts did anything
// only if every one of them was answered: one that went unanswered (a reset, a timeout) may still
// be at work on the server and act after the refusal, so its worst case stays.
// One Idempotency-Key is one charge: its retries and replays never count twice. Keys are the
// server's per account, so they are counted per origin and API key. A server keeps a key for a
// while, not for ever: a key first sent more than KEY_KEPT_MS ago is a new key (what it counted
// stays counted), and a new job under a key answered before is a new charge.

import type { CallMeter, RequestSpec, Transport } from '../core/transport-types.js';
import { ApiError, SpendLimitError } from '../errors/errors.js';
import type { ReadResponse } from '../schemas/article.js';
import type { BalanceResponse } from '../schemas/credits.js';
import type { PriceField } from '../schemas/endpoints.js';
import { isTerminalStatus, type Job } from '../schemas/job.js';
import type { Attempt } from './attempt.js';

/**
 * Keys and jobs remembered, each: the oldest is forgotten first. What it counted stays counted,
 * and a forgotten key sent again is held and counted as a new one (never below what was charged).
 */
const REMEMBERED = 10_000;
/**
 * How long the server is taken to keep a key, from the first time it was sent (the server
 * stores it no sooner): 24 hours, as the mock and Stripe keep keys (the interface names none).
 */
const KEY_KEPT_MS = 24 * 3600_000;

/** What this client counts for one Idempotency-Key (under one API key) or one job. */
interface Counted {
  credits: number;
  /** An answer said so; otherwise `credits` is the worst case of a call whose answers were all lost. */
  known: boolean;
  /** An attempt with the key went unanswered: it may still act, so no refusal proves it did nothing. */
  unanswered: boolean;
  /** The job the key answered with: the same job again is a replay, another one a new charge. */
  jobId?: string;
  /** When a call first sent the key (Date.now()), which its replays do not move. */
  sentAt: number;
}
const uncounted = (sentAt: number): Counted => ({ credits: 0, known: false, unanswered: false, sentAt });

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

/** What a spend knows of prices: a derived client with a budget of its own starts from them. */
interface KnownPrices {
  prices: Record<PriceField, number>;
  highest: Record<PriceField, number>;
}

/** The interface's prices: no hold goes below them. */
const DEFAULT_PRICES: Readonly<Record<PriceField, number>> = { read_credits: 1, generation_credits: 100 };

export function createSpend(limit: number | undefined, from?: { known(): KnownPrices }) {
  let spent = 0;
  let inFlight = 0;
  const known = from?.known();
  // The last balance's prices (the interface's defaults until one is seen).
  const prices: Record<PriceField, number> = { ...DEFAULT_PRICES, ...known?.prices };
  // The most this client was charged for each, never below the defaults: a balance is the
  // server's word, not a charge, so one that says less (a discount, or a lie) lowers no hold.
  const highest = { ...DEFAULT_PRICES, ...known?.highest };
  const charge = (field: PriceField, credits: number) => {
    highest[field] = Math.max(highest[field], credits);
    return credits;
  };
  const keys = new Map<string, Counted>();
  /** Calls under way per key: a key's count is not given back while another call relies on it. */
  const underWay = new Map<string, number>();
  const jobs = new Map<string, Counted>();

  function hold(price: number, attempts?: number): void {
    if (limit !== undefined && price > 0 && spent + inFlight + price > limit) {
      throw new SpendLimitError({ limit, spent, inFlight, price }, attempts ? { attempts } : {});
    }
    inFlight += price;
  }
  function count(counted: Counted, credits: number): void {
    spent += credits - counted.credits;
    counted.credits = credits;
    counted.known = true;
  }

  /**
   * A job seen in any answer. What it holds now is what this client counts for it: a failed or
   * cancelled job's 0 gives its credits back; otherwise the count only ever goes up.
   */
  function sawJob(job: Job, scope: string, given?: Counted): void {
    // Job ids are the server's: two servers (or two accounts) may each have the same one.
    const slot = `${scope}\n${job.job_id}`;
    const counted = given ?? jobs.get(slot);
    if (!counted) return;
    const credits = charged(job);
    if (
      !counted.known ||
      job.status === 'failed' ||
      job.status === 'cancelled' ||
      credits > counted.credits
    ) {
      count(counted, credits);
    }
    if (isTerminalStatus(job.status)) jobs.delete(slot);
    else remember(jobs, slot, counted);
  }

  function saw(value: unknown, scope: string): void {
    // Undefined: handed over unread (asResponse()).
    const { pricing } = (value ?? {}) as Partial<BalanceResponse>;
    if (pricing) for (const field in prices) prices[field as PriceField] = pricing[field as PriceField];
    else if (isJob(value)) sawJob(value, scope);
  }

  function open(
    { idempotencyKey: key }: RequestSpec<unknown>,
    fields: readonly PriceField[],
    scope: string,
  ): CallMeter {
    const price = Math.max(...fields.map((field) => Math.max(prices[field], highest[field])));
    // A server keeps Idempotency-Keys per account: a derived client with another API key or
    // another origin may use the same key for other work.
    const slot = key === undefined ? undefined : `${scope}\n${key}`;
    const openedAt = Date.now();
    let before = slot === undefined ? undefined : keys.get(slot);
    if (before && openedAt - before.sentAt >= KEY_KEPT_MS) {
      // The server may have forgotten the key: this call is a new key, and what the old one
      // counted (its answer's, or its worst case) stays counted.
      keys.delete(slot!);
      before = undefined;
    }
    // A key whose answers were all lost holds only the rest of its worst case; one answered
    // before, nothing: its replay is not counted again.
    let held = before?.known ? 0 : Math.max(0, price - (before?.credits ?? 0));
    hold(held);
    // Counted once the call is let out: a call the limit refused never ends, so never uncounts.
    if (slot !== undefined) underWay.set(slot, (underWay.get(slot) ?? 0) + 1);
    const release = () => {
      inFlight -= held;
      held = 0;
    };
    let settled = false;
    let uncertain = false;
    // An attempt of this call that no answer came for (a reset, a timeout, an abort).
    let unanswered = false;
    // The last attempt's refusal: 402 or 404 say the key did nothing, 409 that this call did
    // nothing (it may say another call used the key). Either holds only if every attempt was
    // answered: the server answers a key that did something with a replay, before any rule.
    let refusal: 402 | 404 | 409 | undefined;
    // An attempt that may have been charged, by how much no answer says: a read counts its
    // price now (its retry holds it again); a key's worst case counts at the end, if no answer came.
    const unknown = () => {
      if (slot !== undefined) uncertain = true;
      else {
        spent += price;
        release();
      }
    };
    return {
      attempt(attempt) {
        // A read has no key: each of its attempts may be charged, so each one holds the price.
        if (slot === undefined && held === 0) {
          hold(price, attempt - 1);
          held = price;
        }
      },
      answered(value) {
        // Handed over unread (asResponse()): charged, but by how much only the body says.
        if (value === undefined) return unknown();
        settled = true;
        release();
        if (slot === undefined) {
          spent += charge('read_credits', charged(value as ReadResponse));
          return;
        }
        let counted = keys.get(slot);
        // Answered before, and not with the same job, nor with a read the server still keeps:
        // the server did the work anew under the key, a charge of its own.
        const replay = counted?.known && (isJob(value) ? value.job_id === counted.jobId : !counted.jobId);
        if (counted?.known && !replay) counted = undefined;
        counted ??= uncounted(openedAt);
        remember(keys, slot, counted);
        if (!isJob(value)) {
          if (!counted.known) count(counted, charge('read_credits', charged(value as ReadResponse)));
          return;
        }
        counted.jobId = value.job_id;
        // A started job's credits are what a generation or an update costs.
        if (!isTerminalStatus(value.status)) charge('generation_credits', charged(value));
        sawJob(value, scope, counted);
      },
      failed(error, notSent) {
        const status = error instanceof ApiError ? error.status : undefined;
        refusal = status === 402 || status === 404 || status === 409 ? status : undefined;
        if (status === undefined && !notSent) unanswered = true;
        if (mayHaveCharged(error, notSent)) unknown();
      },
      end() {
        release();
        if (slot === undefined) return;
        const others = (underWay.get(slot) ?? 1) - 1;
        if (others > 0) underWay.set(slot, others);
        else underWay.delete(slot);
        if (settled) return;
        const counted = keys.get(slot) ?? uncounted(openedAt);
        if (counted.known) return;
        if (refusal !== undefined && !unanswered) {
          // Every attempt answered, the last with a refusal: this call did nothing. A 402 or 404
          // also says no earlier call with the key did, unless one of those went unanswered.
          // Another call with the key still under way holds nothing on that count: it stays.
          if (refusal !== 409 && !counted.unanswered && others === 0) {
            spent -= counted.credits;
            keys.delete(slot);
          }
          return;
        }
        if (uncertain) {
          // Every answer was lost: the worst case, until a replay of the key says.
          spent += Math.max(0, price - counted.credits);
          counted.credits = Math.max(price, counted.credits);
          counted.unanswered ||= unanswered;
          remember(keys, slot, counted);
        }
      },
    };
  }

  return {
    /** Credits charged to this client's calls, net of the refunds it has seen. */
    spent: () => spent,
    /** The prices this spend holds calls at, for a derived client's own budget to start from. */
    known: (): KnownPrices => ({ prices: { ...prices }, highest: { ...highest } }),
    /** The transport's request, holding each paid call's worst case until it ends. */
    /** `scope`: the origin and the API key, which the server keeps Idempotency-Keys under. */
    calls: (request: Request, scope: string): Request =>
      // A free call goes straight through: nothing to hold, and no promise more per call.
      function metered(spec, call) {
        if (spec.price === undefined) return request(spec, call);
        let meter: CallMeter;
        try {
          meter = open(spec, spec.price, scope);
        } catch (error) {
          return Promise.reject(error); // a SpendLimitError: nothing was sent
        }
        return request({ ...spec, meter }, call).finally(() => meter.end());
      },
    /** The transport's attempt, reporting each attempt of a paid call, and every answer seen. */
    /** `scope` as for `calls`: the jobs a free call's answers show are this server's and key's. */
    attempts: (attempt: Attempt, scope: string): Attempt =>
      function metered(spec, info, ...rest) {
        const { meter } = spec;
        if (!meter) {
          // A free call's answer: a balance's prices, or a job whose refund this client counts.
          return attempt(spec, info, ...rest).then((outcome) => {
            if (outcome.kind === 'success') saw(outcome.value.data, scope);
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
