// The contract as verify judges it: endpoints by their contract names, the schema of each
// success answer, and one judge that compares an answer's status, content-type and body.
// The schemas are the SDK's, so the mock, the SDK and verify hold the same contract.
import {
  BalanceResponseSchema,
  CheckoutSessionResponseSchema,
  ErrorBodySchema,
  JobSchema,
  ReadResponseSchema,
} from '@profile-articles/sdk/schemas';
import type { Answer } from './probe.js';

export const ENDPOINTS = {
  balance: 'GET /api/v1/credits',
  checkout: 'POST /api/v1/credits/checkout',
  read: 'GET /api/v1/articles/{profile_id}',
  generate: 'POST /api/v1/articles',
  update: 'POST /api/v1/articles/{profile_id}/update',
  job: 'GET /api/v1/jobs/{job_id}',
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

/** The method and the path of a request to `endpoint`, its `{params}` filled in and encoded. */
export function requestLine(
  endpoint: EndpointName,
  params: Readonly<Record<string, string>> = {},
): { method: 'GET' | 'POST'; path: string } {
  const [method, template] = ENDPOINTS[endpoint].split(' ') as ['GET' | 'POST', string];
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  return { method, path };
}

interface Schema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: ReadonlyArray<{ path: PropertyKey[]; code: string; expected?: unknown }> };
  };
}

/** The schema of a 2xx answer, by endpoint; generate's 200 is a ReadResponse or a Job. */
function successSchema(endpoint: EndpointName, body: unknown): { schema: Schema; name: string } {
  switch (endpoint) {
    case 'balance':
      return { schema: BalanceResponseSchema, name: 'BalanceResponse' };
    case 'checkout':
      return { schema: CheckoutSessionResponseSchema, name: 'CheckoutSessionResponse' };
    case 'read':
      return { schema: ReadResponseSchema, name: 'ReadResponse' };
    case 'generate':
      return typeof body === 'object' && body !== null && 'job_id' in body
        ? { schema: JobSchema, name: 'Job' }
        : { schema: ReadResponseSchema, name: 'ReadResponse' };
    default:
      return { schema: JobSchema, name: 'Job' };
  }
}

export interface Difference {
  expected: string;
  got: string;
}

function short(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return 'nothing';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function at(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | null | undefined)?.[key];
  return value;
}

/** The first schema problem in words: `article.title: expected string, got nothing`. */
function schemaDifference(schema: Schema, name: string, body: unknown): Difference | undefined {
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  const issue = result.error?.issues[0];
  if (!issue) return { expected: `a ${name}`, got: short(body) };
  const path = issue.path.map(String).join('.') || '(body)';
  const received = at(body, issue.path);
  const expected = issue.expected === undefined ? issue.code : String(issue.expected);
  return {
    expected: `a ${name} (${path}: ${expected})`,
    got: `${path}: ${received === undefined ? 'missing' : short(received, 60)}`,
  };
}

/**
 * Undefined when the answer has an expected status, a JSON content-type and a body that
 * matches the contract (a success schema, or `{detail}` for an error); else what differs.
 */
export function judge(
  endpoint: EndpointName,
  answer: Answer,
  statuses: number | readonly number[],
): Difference | undefined {
  const allowed = typeof statuses === 'number' ? [statuses] : statuses;
  if (!allowed.includes(answer.status)) {
    return { expected: `status ${allowed.join(' or ')}`, got: `${answer.status} ${short(answer.body)}` };
  }
  if (!/^application\/json\b/i.test(answer.contentType)) {
    return {
      expected: 'content-type application/json',
      got: answer.contentType ? `content-type ${answer.contentType}` : 'no content-type',
    };
  }
  if (answer.status >= 400) return schemaDifference(ErrorBodySchema, '{detail} error body', answer.body);
  const { schema, name } = successSchema(endpoint, answer.body);
  return schemaDifference(schema, name, answer.body);
}
