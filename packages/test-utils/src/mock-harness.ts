// One way to talk to the mock in tests, over real HTTP or through msw, so every contract
// test runs the same assertions against both transports. Every answer is checked against
// the SDK's schemas for its endpoint and status.

import type { MockConfig, MockService } from '@profile-articles/mock-server';
import { API_PREFIX, answerSchema, ENDPOINTS, type Endpoint } from '@profile-articles/sdk/internal';
import { ErrorBodySchema } from '@profile-articles/sdk/schemas';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type * as z from 'zod/mini';
import { startMock, type TransportKind } from './start-mock.js';

export type { TransportKind };

export const TEST_CONFIG: MockConfig = {
  accounts: [
    { id: 'acme', apiKeys: ['key-0001', 'key-0002'], credits: 1000, pricing: { credit_price_cents: 5 } },
    { id: 'other', apiKeys: ['key-other'], credits: 1000 },
    { id: 'poor', apiKeys: ['key-poor'], credits: 150 },
    { id: 'limited', apiKeys: ['key-limited'], credits: 1000, pricing: { requests_per_minute: 3 } },
  ],
  jobs: { queuedMs: 1000, runningMs: 4000 },
  payments: 'enabled',
};

export interface ApiAnswer {
  status: number;
  body: any;
  headers: Headers;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

/** The table entry for `method` and `path` (below the API prefix, query and all), if any. */
export function endpointFor(method: string, path: string): Endpoint | undefined {
  const parts = path.split('?')[0]!.split('/').filter(Boolean);
  return Object.values(ENDPOINTS as Record<string, Endpoint>).find((endpoint) => {
    const template = endpoint.path.split('/').filter(Boolean);
    return (
      endpoint.method === method &&
      template.length === parts.length &&
      template.every((segment, i) => segment.startsWith('{') || segment === parts[i])
    );
  });
}

/**
 * The schema the contract table gives this answer. An API answer the table does not list
 * fails the test: a missing schema never skips the check.
 */
function schemaFor(method: string, path: string, status: number): z.ZodMiniType | undefined {
  if (!path.startsWith(`${API_PREFIX}/`)) return status >= 400 ? ErrorBodySchema : undefined;
  const endpoint = endpointFor(method, path.slice(API_PREFIX.length));
  // No endpoint has this method and path: only an error (404, 405, 401…) with {detail} is right.
  const schema = endpoint ? answerSchema(endpoint, status) : status >= 400 ? ErrorBodySchema : undefined;
  if (!schema) expect.fail(`${method} ${path} answered ${status}, which the contract table does not list`);
  return schema;
}

export interface Harness {
  kind: TransportKind;
  baseUrl: string;
  service: MockService;
  call(method: string, path: string, options?: CallOptions): Promise<ApiAnswer>;
  advance(ms: number): Promise<void>;
  /** The balance `GET /credits` reports for this key (key-1 unless told). */
  balance(key?: string): Promise<number>;
}

/** Sets up the mock for a describe block; fresh state before each test. */
export function useMock(kind: TransportKind, config: MockConfig = TEST_CONFIG): Harness {
  const harness = { kind } as Harness;
  let close: () => Promise<void> | void = () => {};

  beforeAll(async () => {
    const mock = await startMock(kind, config);
    harness.baseUrl = mock.baseUrl;
    harness.service = mock.service;
    close = mock.close;
  });
  afterAll(() => close());
  beforeEach(() => harness.service.reset());

  harness.call = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? 'key-0001' : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${harness.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const parsed = type.includes('json') && text ? JSON.parse(text) : text;
    // Status 0: a network error (msw's `Response.error()`), no answer to check.
    if (response.status !== 0) {
      expect(response.headers.get('x-request-id'), `${method} ${path} has a request id`).toBeTruthy();
    }
    const schema = response.status === 0 ? undefined : schemaFor(method, path, response.status);
    // A HEAD answer has headers only.
    if (schema && method !== 'HEAD') {
      expect(type, `${method} ${path} ${response.status} is JSON`).toContain('application/json');
      const result = schema.safeParse(parsed);
      expect(result.success, `${method} ${path} ${response.status} matches its schema`).toBe(true);
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
  harness.advance = async (ms) => {
    const answer = await harness.call('POST', '/_mock/clock/advance', { body: { ms } });
    expect(answer.status).toBe(200);
  };
  harness.balance = async (key = 'key-0001') => {
    const answer = await harness.call('GET', '/api/v1/credits', { key });
    expect(answer.status).toBe(200);
    return answer.body.credits;
  };
  return harness;
}

/** Starts a generation and lets it finish; resolves to the finished job. */
export async function generateAndFinish(h: Harness, profileId: string, key = 'key-0001') {
  const started = await h.call('POST', '/api/v1/articles', {
    key,
    body: { profile_id: profileId },
    idempotencyKey: `gen-${profileId}`,
  });
  expect(started.status).toBe(202);
  await h.advance(5000);
  const done = await h.call('GET', `/api/v1/jobs/${started.body.job_id}`, { key });
  return done.body;
}
