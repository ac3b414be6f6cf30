// A request's inputs checked against its contract-table entry: path parameters, headers and
// body, every problem reported at once in one 422, as the interface's array `detail` allows.
import type { Endpoint } from '@profile-articles/sdk/internal';
import type { Context } from 'hono';
import type * as z from 'zod/mini';
import { type Failure, invalid, parseInput, type ValidationIssue } from '../operations/outcome.js';
import { parseOnce } from './parse-once.js';
import { requestHeader } from './request-header.js';
import { parseJsonBody, parseJsonText } from './respond.js';
import type { Transport } from './transport.js';

type Out<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

/** The inputs of endpoint `E`, parsed by its table schemas. */
export interface EndpointArgs<E extends Endpoint> {
  params: { [K in keyof E['pathParams']]: Out<E['pathParams'][K]> };
  headers: { [K in keyof E['headers']]: Out<E['headers'][K]> };
  body: E extends { body: infer B } ? Out<B> : undefined;
}

// Each table entry's schemas as a list, made once: checking a request then walks the list
// instead of building it again.
const entryLists = new WeakMap<object, Array<[string, z.ZodMiniType]>>();
function entriesOf(schemas: Readonly<Record<string, z.ZodMiniType>>): Array<[string, z.ZodMiniType]> {
  let list = entryLists.get(schemas);
  if (!list) {
    list = Object.entries(schemas);
    entryLists.set(schemas, list);
  }
  return list;
}

function checkEach(
  where: 'path' | 'header',
  schemas: Readonly<Record<string, z.ZodMiniType>>,
  read: (name: string) => string | undefined,
  issues: ValidationIssue[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of entriesOf(schemas)) {
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

/** Where an endpoint's inputs are read from. */
interface EndpointInputs {
  param(name: string): string | undefined;
  header(name: string): string | undefined;
}

type ArgsResult<E extends Endpoint> =
  | { ok: true; args: EndpointArgs<E> }
  | { ok: false; outcome: Failure<422> };

/**
 * The parsed inputs, or the 422 that lists everything wrong with them, for a request whose
 * body (if its endpoint takes one) the transport read whole as `bodyText`.
 */
export function checkEndpointArgs<E extends Endpoint>(
  endpoint: E,
  inputs: EndpointInputs,
  bodyText: string | undefined,
): ArgsResult<E> {
  return finish(endpoint, inputs, (schema) =>
    // A body the transport read whole is a string to key the memo by.
    parseOnce(schema, bodyText ?? '', () => parseJsonText(bodyText ?? '', schema)),
  );
}

/** The parsed inputs, or the 422 that lists everything wrong with them. */
export async function readEndpointArgs<E extends Endpoint>(c: Context, endpoint: E): Promise<ArgsResult<E>> {
  const inputs: EndpointInputs = {
    param: (name) => c.req.param(name),
    header: (name) => requestHeader(c, name),
  };
  const text = (c.env as Transport | undefined)?.body;
  if (!endpoint.body || text !== undefined) return checkEndpointArgs(endpoint, inputs, text);
  // A streamed body is not a string to key the memo by: parsed every time.
  const parsed = await parseJsonBody(c, endpoint.body);
  return finish(endpoint, inputs, () => parsed);
}

function finish<E extends Endpoint>(
  endpoint: E,
  inputs: EndpointInputs,
  parseBody: (
    schema: z.ZodMiniType,
  ) => { ok: true; data: unknown } | { ok: false; issues: ValidationIssue[] },
): ArgsResult<E> {
  const issues: ValidationIssue[] = [];
  const params = checkEach('path', endpoint.pathParams, inputs.param, issues);
  const headers = checkEach('header', endpoint.headers, inputs.header, issues);
  let body: unknown;
  if (endpoint.body) {
    const parsed = parseBody(endpoint.body);
    if (parsed.ok) body = parsed.data;
    else issues.push(...parsed.issues);
  }
  if (issues.length) return { ok: false, outcome: invalid(issues) };
  return { ok: true, args: { params, headers, body } as EndpointArgs<E> };
}
