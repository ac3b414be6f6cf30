// A request's inputs checked against its contract-table entry: path parameters, headers and
// body, every problem reported at once in one 422, as the interface's array `detail` allows.
import type { Endpoint } from '@profile-articles/sdk/internal';
import type { Context } from 'hono';
import type * as z from 'zod/mini';
import { type Failure, invalid, parseInput, type ValidationIssue } from '../outcome.js';
import type { Transport } from './guard.js';
import { parseOnce } from './parse-once.js';
import { requestHeader } from './request-header.js';
import { parseJsonBody, parseJsonText } from './respond.js';

type Out<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

/** The inputs of endpoint `E`, parsed by its table schemas. */
export interface EndpointArgs<E extends Endpoint> {
  params: { [K in keyof E['pathParams']]: Out<E['pathParams'][K]> };
  headers: { [K in keyof E['headers']]: Out<E['headers'][K]> };
  body: E extends { body: infer B } ? Out<B> : undefined;
}

function checkEach(
  where: 'path' | 'header',
  schemas: Readonly<Record<string, z.ZodMiniType>>,
  read: (name: string) => string | undefined,
  issues: ValidationIssue[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const input = read(name);
    const parsed =
      input === undefined
        ? parseInput(schema, input, where)
        : parseOnce(schema, input, () => parseInput(schema, input, where));
    if (parsed.ok) values[name] = parsed.data;
    // The whole value is at fault: name it, not a position inside it.
    else issues.push(...parsed.issues.map((i) => ({ ...i, loc: [where, name] })));
  }
  return values;
}

/** The parsed inputs, or the 422 that lists everything wrong with them. */
export async function readEndpointArgs<E extends Endpoint>(
  c: Context,
  endpoint: E,
): Promise<{ ok: true; args: EndpointArgs<E> } | { ok: false; outcome: Failure<422> }> {
  const issues: ValidationIssue[] = [];
  const params = checkEach('path', endpoint.pathParams, (name) => c.req.param(name), issues);
  const headers = checkEach('header', endpoint.headers, (name) => requestHeader(c, name), issues);
  let body: unknown;
  if (endpoint.body) {
    const schema = endpoint.body;
    // A body the transport read whole is a string to key the memo by; a streamed one is not.
    const text = (c.env as Transport | undefined)?.body;
    const parsed =
      text === undefined
        ? await parseJsonBody(c, schema)
        : parseOnce(schema, text, () => parseJsonText(text, schema));
    if (parsed.ok) body = parsed.data;
    else issues.push(...parsed.issues);
  }
  if (issues.length) return { ok: false, outcome: invalid(issues) };
  return { ok: true, args: { params, headers, body } as EndpointArgs<E> };
}
