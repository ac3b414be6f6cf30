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

/** An endpoint's parsed inputs, or the 422 that lists everything wrong with them. */
export type EndpointInput<E extends Endpoint> =
  | { ok: true; args: EndpointArgs<E> }
  | { ok: false; outcome: Failure<422> };

function finish<E extends Endpoint>(
  issues: ValidationIssue[],
  args: Omit<EndpointArgs<E>, 'body'>,
  body: unknown,
): EndpointInput<E> {
  if (issues.length) return { ok: false, outcome: invalid(issues) };
  return { ok: true, args: { ...args, body } as EndpointArgs<E> };
}

/**
 * The parsed inputs, or the 422 that lists everything wrong with them. Synchronous unless the
 * body must still be read from the Request's stream (the transport did not read it whole): a
 * Promise per request is a cost the hot path can skip.
 */
export function readEndpointArgs<E extends Endpoint>(
  c: Context,
  endpoint: E,
): EndpointInput<E> | Promise<EndpointInput<E>> {
  const issues: ValidationIssue[] = [];
  const params = checkEach('path', endpoint.pathParams, (name) => c.req.param(name), issues);
  const headers = checkEach('header', endpoint.headers, (name) => requestHeader(c, name), issues);
  const args = { params, headers } as Omit<EndpointArgs<E>, 'body'>;
  if (!endpoint.body) return finish(issues, args, undefined);
  const schema = endpoint.body;
  const withBody = (parsed: { ok: true; data: unknown } | { ok: false; issues: ValidationIssue[] }) => {
    if (!parsed.ok) issues.push(...parsed.issues);
    return finish<E>(issues, args, parsed.ok ? parsed.data : undefined);
  };
  // A body the transport read whole is a string to key the memo by; a streamed one is not.
  const text = (c.env as Transport | undefined)?.body;
  return text === undefined
    ? parseJsonBody(c, schema).then(withBody)
    : withBody(parseOnce(schema, text, () => parseJsonText(text, schema)));
}
