// Type test, checked by `pnpm typecheck` (tsc over packages/*/test): an operation's answer must
// be one its contract-table entry lists. Each `@ts-expect-error` fails the check when the line
// under it compiles, so a loosened Outcome or EndpointOutcome cannot go unnoticed.
import type { BalanceResponse, Job, ReadResponse } from '@profile-articles/sdk/schemas';
import type { EndpointOutcome } from '../../src/http/endpoint-outcome.js';
import { generateArticle, readArticle, updateArticle } from '../../src/operations/articles.js';
import { createCheckout, getBalance } from '../../src/operations/credits.js';
import { getJob } from '../../src/operations/jobs.js';
import { fail, type Outcome, ok, type ValidationIssue } from '../../src/operations/outcome.js';

declare const read: ReadResponse;
declare const balance: BalanceResponse;
declare const job: Job;

// The operations as they are fit their entries.
export const fits: {
  [N in 'readArticle' | 'generateArticle' | 'updateArticle' | 'getJob' | 'getBalance' | 'createCheckout']: (
    ...args: never[]
  ) => EndpointOutcome<N>;
} = { readArticle, generateArticle, updateArticle, getJob, getBalance, createCheckout };

export const readOk: EndpointOutcome<'readArticle'> = ok(read);
export const readMissing: EndpointOutcome<'readArticle'> = fail(404, 'No article exists for this profile');
export const jobAccepted: EndpointOutcome<'updateArticle'> = ok(job, 202);

// A body of another endpoint.
// @ts-expect-error a read answers a ReadResponse, not a balance
export const wrongBody: EndpointOutcome<'readArticle'> = ok(balance);
// @ts-expect-error the balance answers a BalanceResponse, not an article
export const wrongBalance: EndpointOutcome<'getBalance'> = ok(read);
// A body missing a field the contract requires.
// @ts-expect-error credits_charged is missing
export const partial: EndpointOutcome<'readArticle'> = ok({ article: read.article });
// A success status the entry does not list.
// @ts-expect-error a read never answers 202
export const wrongStatus: EndpointOutcome<'readArticle'> = ok(read, 202);
// An article on 202: only a job is accepted.
// @ts-expect-error generate's 202 carries a Job
export const acceptedRead: EndpointOutcome<'generateArticle'> = ok(read, 202);
// An error status the entry does not list.
// @ts-expect-error the balance is never 404
export const wrongError: EndpointOutcome<'getBalance'> = fail(404, 'Not found');
// An operation that declares a body other than its entry's.
const answersBalance = (): Outcome<BalanceResponse> => ok(balance);
// @ts-expect-error readArticle must not answer Outcome<BalanceResponse>
export const wrongOperation: (...args: never[]) => EndpointOutcome<'readArticle'> = answersBalance;

// A 422 entry is the SDK's error-body entry with loc, msg and type all present.
export const entry: ValidationIssue = {
  loc: ['body', 'profile_id', 0],
  msg: 'Field required',
  type: 'missing',
};
// @ts-expect-error a 422 entry always has a type
export const noType: ValidationIssue = { loc: ['body'], msg: 'Field required' };
// @ts-expect-error loc holds names and positions only
export const badLoc: ValidationIssue = { loc: [true], msg: 'Field required', type: 'missing' };
