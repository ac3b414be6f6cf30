// The contract as verify judges it, all from the SDK's endpoint table: which request line
// an endpoint has, which body each answer must have, and one judge that compares an
// answer's status, content-type and body. Nothing here spells a path or a schema twice.
import {
  API_PREFIX,
  answerSchema,
  ENDPOINTS,
  type EndpointName,
  fillPath,
  type HttpMethod,
  identifierBounds,
} from '@profile-articles/sdk/internal';
import { JobSchema, ReadResponseSchema } from '@profile-articles/sdk/schemas';
import * as z from 'zod/mini';
import type { Answer } from './probe.js';

export type { EndpointName };

/** `GET /api/v1/jobs/{job_id}`: how reports name an endpoint. */
export function endpointLabel(endpoint: EndpointName): string {
  const { method, path } = ENDPOINTS[endpoint];
  return `${method} ${API_PREFIX}${path}`;
}

/** The method and the path of a request to `endpoint`, its `{params}` filled in and encoded. */
export function requestLine(
  endpoint: EndpointName,
  params: Readonly<Record<string, string>> = {},
): { method: HttpMethod; path: string } {
  const entry = ENDPOINTS[endpoint];
  return { method: entry.method, path: `${API_PREFIX}${fillPath(entry, params)}` };
}

/** The statuses the table gives `endpoint`'s successful answers. */
export function successStatuses(endpoint: EndpointName): number[] {
  return Object.keys(ENDPOINTS[endpoint].responses).map(Number);
}

/** The server-side failures the table lists for `endpoint` (checkout's 502 and 503). */
export function listedServerFailures(endpoint: EndpointName): number[] {
  return ENDPOINTS[endpoint].errors.filter((status) => status >= 500);
}

/** One character more than a string schema allows: the probe for its length limit. */
export function tooLong(schema: z.ZodMiniType): string {
  const { maxLength } = z.toJSONSchema(schema, { metadata: identifierBounds }) as { maxLength?: number };
  // A schema the registry does not know would probe with one character and prove nothing.
  if (maxLength === undefined) throw new Error('tooLong: the schema has no maxLength in identifierBounds');
  return 'x'.repeat(maxLength + 1);
}

interface Schema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: ReadonlyArray<{ path: PropertyKey[]; code: string; expected?: unknown }> };
  };
}

/**
 * The body schema of an answer. Generate's 200 is a ReadResponse or a Job; judging it by
 * the one its `job_id` says it is names the field that differs, where the union could not.
 */
function schemaOf(endpoint: EndpointName, status: number, body: unknown): Schema | undefined {
  if (endpoint === 'generateArticle' && status === 200) {
    return typeof body === 'object' && body !== null && 'job_id' in body ? JobSchema : ReadResponseSchema;
  }
  return answerSchema(ENDPOINTS[endpoint], status) as Schema | undefined;
}

interface Difference {
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

/** The first schema problem in words: `article.title: string` against `article.title: missing`. */
function schemaDifference(schema: Schema, what: string, body: unknown): Difference | undefined {
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  const issue = result.error?.issues[0];
  if (!issue) return { expected: what, got: short(body) };
  const path = issue.path.map(String).join('.') || '(body)';
  const received = at(body, issue.path);
  const expected = issue.expected === undefined ? issue.code : String(issue.expected);
  return {
    expected: `${what} (${path}: ${expected})`,
    got: `${path}: ${received === undefined ? 'missing' : short(received, 60)}`,
  };
}

/**
 * Undefined when the answer has an expected status, a JSON content-type and the body the
 * contract gives that status (`{detail}` for an error); else what differs. A body verify did
 * not read (over its cap) always differs.
 */
export function judge(
  endpoint: EndpointName,
  answer: Answer,
  statuses: number | readonly number[],
): Difference | undefined {
  const allowed = typeof statuses === 'number' ? [statuses] : statuses;
  if (answer.overLimit) {
    return {
      expected: `status ${allowed.join(' or ')}`,
      got: `${answer.status} with ${answer.overLimit} (not read)`,
    };
  }
  if (!allowed.includes(answer.status)) {
    return { expected: `status ${allowed.join(' or ')}`, got: `${answer.status} ${short(answer.body)}` };
  }
  if (!/^application\/json\b/i.test(answer.contentType)) {
    return {
      expected: 'content-type application/json',
      got: answer.contentType ? `content-type ${answer.contentType}` : 'no content-type',
    };
  }
  const schema = schemaOf(endpoint, answer.status, answer.body);
  if (!schema)
    return {
      expected: `a status the contract lists for ${endpointLabel(endpoint)}`,
      got: String(answer.status),
    };
  const what = answer.status >= 400 ? 'a {detail} error body' : `the contract's ${answer.status} body`;
  return schemaDifference(schema, what, answer.body);
}
