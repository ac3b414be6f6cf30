// Words for the OpenAPI document: a summary, a tag and a description per contract-table
// entry, and what each status means. Only the builder imports this file, so the SDK bundle
// never carries it. The entry names are the operationIds.
import type { EndpointName, SuccessStatus } from '../../packages/sdk/src/schemas/endpoints.js';

export interface OperationDocs {
  summary: string;
  description: string;
  tag: 'Articles' | 'Jobs' | 'Credits';
  /** What each success status of the entry means. */
  responses: Partial<Record<SuccessStatus, string>>;
}

export const TAGS = [
  { name: 'Articles', description: 'Read, generate and update the article of a profile' },
  { name: 'Jobs', description: 'Poll generation and update jobs' },
  { name: 'Credits', description: 'The shared balance, its terms, and buying credits' },
];

export const OPERATION_DOCS: Record<EndpointName, OperationDocs> = {
  readArticle: {
    summary: 'Read the current article (1 credit). Never starts generation.',
    description: 'Charges 1 credit per successful request. A missing article is 404 and free.',
    tag: 'Articles',
    responses: { 200: 'The article; 1 credit charged' },
  },
  generateArticle: {
    summary: 'Generate an article (100 credits reserved), or receive the existing one (1 credit)',
    description:
      'When the article exists, answers it for 1 credit. Otherwise reserves 100 credits and starts a job: ' +
      'poll it for the result. A replay of the same Idempotency-Key returns the original operation without another charge.',
    tag: 'Articles',
    responses: {
      200: 'The article existed (ReadResponse, 1 credit), or a replay of a terminal job (Job)',
      202: 'Generation started; poll the job',
    },
  },
  updateArticle: {
    summary: 'Refresh an existing article with a new research run (100 credits)',
    description: 'Requires an existing article. Use a new Idempotency-Key for each new update.',
    tag: 'Articles',
    responses: { 200: 'Replay of a terminal update job', 202: 'Update queued or running; poll the job' },
  },
  getJob: {
    summary: 'Poll a job (free). Poll about every 10 seconds while queued or running.',
    description: 'Returns a job of the caller’s account; another account’s job is 404.',
    tag: 'Jobs',
    responses: { 200: 'The job; on success `article` holds the result snapshot' },
  },
  getBalance: {
    summary: 'The shared balance and the account’s terms and limits (free)',
    description: 'All API keys of one customer account share this balance.',
    tag: 'Credits',
    responses: { 200: 'Balance and pricing' },
  },
  createCheckout: {
    summary: 'Create a payment checkout; credits are added after payment',
    description: 'Open `url` to pay. Credits arrive after payment confirmation: the balance confirms them.',
    tag: 'Credits',
    responses: { 200: 'Open `url` to pay' },
  },
};

/** What an error status means, for every status the table lists, transport-level ones included. */
export const STATUS_DOCS: Record<number, string> = {
  400: 'Credit purchase outside the allowed range',
  401: 'Missing or invalid API key',
  402: 'Insufficient credits',
  403: 'Cross-origin request refused',
  404: 'Profile or job not found, unavailable or inaccessible',
  405: 'Method not allowed on this path; `Allow` lists the allowed ones',
  409: 'Another job is active for this profile, or the idempotency key was used for a different profile or operation',
  413: 'Request body too large',
  415: 'Request body is not application/json',
  421: 'Request sent to a host this server does not answer for',
  422: 'Invalid request, including a missing Idempotency-Key',
  429: 'Rate limit exceeded',
  431: 'Request headers too large',
  502: 'Checkout unavailable',
  503: 'Payments not configured',
  /** Every `5XX`: the interface's server-side failure row. */
  500: 'Server-side failure; retry with backoff, keeping the same idempotency key for generate or update',
};

/** The 400 every operation can meet before it is served. */
export const BAD_HOST_DOCS =
  'the Host header is missing or is not a host name with an optional port (up to 65535)';

/** Path and header parameters' descriptions, by the table's names. */
export const PARAMETER_DOCS: Record<string, string> = {
  profile_id: 'The profile slug: the last path segment of the profile address',
  job_id: 'The job’s id, as generate or update returned it',
  'idempotency-key': 'Replays of the same key return the original operation without another charge',
};
