// The interface contract as one table: every endpoint's method, path, inputs, answers and
// error statuses. The SDK's resources, the mock's routes and 405 answers, the OpenAPI
// document and the contract tests' schema checks are all derived from it, so adding an
// endpoint starts here (see CONTRIBUTING.md, "Adding an endpoint").
import type * as z from 'zod/mini';
import { ReadResponseSchema } from './article.js';
import { BalanceResponseSchema, CheckoutRequestSchema, CheckoutSessionResponseSchema } from './credits.js';
import { ErrorBodySchema } from './error-body.js';
import { GenerateResponseSchema, JobIdSchema, JobSchema } from './job.js';
import { IdempotencyKeySchema, ProfileIdSchema, ProfileRequestSchema } from './profile-request.js';

/** Every path below is relative to this prefix; the version is part of it. */
export const API_PREFIX = '/api/v1';

export type HttpMethod = 'GET' | 'POST';
export type SuccessStatus = 200 | 202;

export interface Endpoint {
  readonly method: HttpMethod;
  /** Below {@link API_PREFIX}; `{name}` marks a path parameter. */
  readonly path: string;
  readonly pathParams: Readonly<Record<string, z.ZodMiniType>>;
  /** Required request headers, by lower-case name. */
  readonly headers: Readonly<Record<string, z.ZodMiniType>>;
  readonly body?: z.ZodMiniType;
  /** The body of each success status. */
  readonly responses: Readonly<Partial<Record<SuccessStatus, z.ZodMiniType>>>;
  /** The error statuses the interface lists; every one answers {@link ErrorBodySchema}. */
  readonly errors: readonly number[];
  /**
   * A paid endpoint's Pricing fields: a call may cost the highest of them (the SDK's spendLimit
   * holds that much while it is under way). Free endpoints have none.
   */
  readonly price?: readonly PriceField[];
}

/** The Pricing fields that price a call. */
export type PriceField = 'read_credits' | 'generation_credits';

const idempotencyHeader = { 'idempotency-key': IdempotencyKeySchema };

export const ENDPOINTS = {
  readArticle: {
    method: 'GET',
    path: '/articles/{profile_id}',
    pathParams: { profile_id: ProfileIdSchema },
    headers: {},
    responses: { 200: ReadResponseSchema },
    errors: [401, 402, 404, 422, 429],
    price: ['read_credits'],
  },
  generateArticle: {
    method: 'POST',
    path: '/articles',
    pathParams: {},
    headers: idempotencyHeader,
    body: ProfileRequestSchema,
    responses: { 200: GenerateResponseSchema, 202: JobSchema },
    errors: [401, 402, 404, 409, 422, 429],
    // The existing article at a read's price, or a generation.
    price: ['read_credits', 'generation_credits'],
  },
  updateArticle: {
    method: 'POST',
    path: '/articles/{profile_id}/update',
    pathParams: { profile_id: ProfileIdSchema },
    headers: idempotencyHeader,
    responses: { 200: JobSchema, 202: JobSchema },
    errors: [401, 402, 404, 409, 422, 429],
    // An update is priced as a generation.
    price: ['generation_credits'],
  },
  getJob: {
    method: 'GET',
    path: '/jobs/{job_id}',
    pathParams: { job_id: JobIdSchema },
    headers: {},
    responses: { 200: JobSchema },
    errors: [401, 404, 422, 429],
  },
  getBalance: {
    method: 'GET',
    path: '/credits',
    pathParams: {},
    headers: {},
    responses: { 200: BalanceResponseSchema },
    errors: [401, 422, 429],
  },
  createCheckout: {
    method: 'POST',
    path: '/credits/checkout',
    pathParams: {},
    headers: {},
    body: CheckoutRequestSchema,
    responses: { 200: CheckoutSessionResponseSchema },
    errors: [400, 401, 422, 429, 502, 503],
  },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/**
 * Answers any request can get before an endpoint sees it (a refused origin, a wrong method,
 * an oversized or non-JSON body, a wrong host, oversized headers), all with the `{detail}` body.
 * A path no endpoint has answers 404 with the same body.
 */
export const TRANSPORT_ERRORS: readonly number[] = [403, 405, 413, 415, 421, 431];

/** The interface's last error row: any endpoint may fail server-side (5xx) with `{detail}`. */
export const SERVER_FAILURE_RANGE = '5XX';
const isServerFailure = (status: number) => status >= 500 && status <= 599;

/** The success body schema of `status`, or undefined when the table lists none. */
export function responseSchema(endpoint: Endpoint, status: number): z.ZodMiniType | undefined {
  return endpoint.responses[status as SuccessStatus];
}

/**
 * Every schema an answer of `endpoint` may have: its success bodies, and `{detail}` for the
 * statuses the table lists. Undefined means the table has no such answer.
 */
export function answerSchema(endpoint: Endpoint, status: number): z.ZodMiniType | undefined {
  if (status < 400) return responseSchema(endpoint, status);
  const listed = endpoint.errors.includes(status) || TRANSPORT_ERRORS.includes(status);
  return listed || isServerFailure(status) ? ErrorBodySchema : undefined;
}

/**
 * The endpoint path with every parameter filled in and percent-encoded. The values must
 * already have passed the endpoint's `pathParams` schemas.
 */
export function fillPath(endpoint: Endpoint, params: Readonly<Record<string, string>>): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}
