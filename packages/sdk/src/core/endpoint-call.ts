// A call of one contract-table endpoint: the arguments checked against the table's schemas,
// the path filled in, and each answer parsed by the schema the table gives its status.
// The resources are one line per method on top of this.
import type * as z from 'zod/mini';
import { InvalidArgumentError } from '../errors/errors.js';
import { type Endpoint, fillPath, responseSchema } from '../schemas/endpoints.js';
import { type ApiPromise, apiPromise } from './api-promise.js';
import { checkHeaderSafeKey } from './arguments.js';
import type { IdempotentRequestOptions } from './option-types.js';
import type { ParseResult, RequestSpec, Transport } from './transport-types.js';

/** What a call of `E` resolves to: the parsed body of any of its success statuses. */
type EndpointOutput<E extends Endpoint> = {
  [S in keyof E['responses']]: E['responses'][S] extends z.ZodMiniType ? z.output<E['responses'][S]> : never;
}[keyof E['responses']];

interface EndpointInput {
  /** Raw values of the path parameters, by the table's names. */
  params?: Readonly<Record<string, string>>;
  body?: unknown;
}

type Issue = z.core.$ZodIssue;

/**
 * zod/mini carries no messages; say what the table's check wanted. Only numbers meet zod's own
 * bounds here: the identifiers' lengths are rules of the table, with their own messages.
 */
function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case 'too_small':
      return `must be ${issue.inclusive ? 'at least' : 'above'} ${issue.minimum}`;
    case 'too_big':
      return `must be at most ${issue.maximum}`;
    case 'invalid_format':
      return `must be a ${issue.format}`;
    case 'invalid_type':
      return `must be ${issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}`;
    case 'unrecognized_keys':
      return `has unknown fields ${issue.keys.join(', ')}`;
    case 'custom':
      // The table's own rules carry their message.
      return issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
    default:
      return 'is not valid';
  }
}

/** Throws InvalidArgumentError naming the field and its value when `value` breaks `schema`. */
export function checkArgument(name: string, schema: z.ZodMiniType, value: unknown): void {
  const parsed = schema.safeParse(value);
  if (parsed.success) return;
  const issue = parsed.error.issues[0]!;
  // A body is the SDK's wrapping of the caller's arguments: name the field inside it and its
  // value, so `generate('')` says what `read('')` says.
  const inBody = name === 'body' && issue.path.length > 0;
  const field = (inBody ? issue.path : [name, ...issue.path]).map(String).join('.');
  const got = inBody
    ? issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown>)?.[key], value)
    : value;
  throw new InvalidArgumentError(`${field} ${describeIssue(issue)}, got ${JSON.stringify(got)}`);
}

/** Parses a 2xx body by the schema the table gives its status (an unlisted status fails). */
export function parserFor<E extends Endpoint>(endpoint: E) {
  return (body: unknown, status: number): ParseResult<EndpointOutput<E>> => {
    const schema = responseSchema(endpoint, status);
    if (schema) return schema.safeParse(body) as ParseResult<EndpointOutput<E>>;
    return {
      success: false,
      error: {
        issues: [{ code: 'unlisted_status', path: [], message: `The interface lists no ${status} answer` }],
      },
    };
  };
}

/** Only the pacer's own limit read sets these; see pacing-client.ts. */
type PacingFields = Pick<RequestSpec<unknown>, 'paceExempt' | 'waitingSince'>;

/**
 * The request for one call of `endpoint`; throws when an argument breaks the table's schemas.
 * Endpoints that take an `Idempotency-Key` send the caller's or a fresh one, the same on every
 * attempt of the call.
 */
export function endpointRequest<E extends Endpoint>(
  endpoint: E,
  input: EndpointInput,
  idempotencyKey?: string,
  pacing: PacingFields = {},
  mode?: RequestSpec<unknown>['mode'],
): RequestSpec<EndpointOutput<E>> {
  const params = input.params ?? {};
  for (const [name, schema] of Object.entries(endpoint.pathParams)) checkArgument(name, schema, params[name]);
  if (endpoint.body) checkArgument('body', endpoint.body, input.body);
  const keySchema = endpoint.headers['idempotency-key'];
  const needsKey = keySchema !== undefined;
  if (needsKey && idempotencyKey !== undefined) {
    checkArgument('idempotencyKey', keySchema, idempotencyKey);
    checkHeaderSafeKey(idempotencyKey);
  }
  return {
    method: endpoint.method,
    path: fillPath(endpoint, params),
    ...(input.body === undefined ? {} : { body: input.body }),
    ...(needsKey ? { idempotencyKey: idempotencyKey ?? crypto.randomUUID() } : {}),
    // A GET, or a POST made safe by its idempotency key, may be sent again.
    policy: endpoint.method === 'GET' || needsKey ? 'idempotent' : 'unsafe',
    // The interface gives 502 and 503 their checkout meanings only where it lists them.
    isCheckout: endpoint.errors.includes(502) || endpoint.errors.includes(503),
    answers404: endpoint.errors.includes(404),
    parse: parserFor(endpoint),
    mode,
    ...(endpoint.price ? { price: endpoint.price } : {}),
    endpoint,
    ...pacing,
  };
}

/** One call of `endpoint`. Argument mistakes reject the promise; they never throw. */
export function callEndpoint<E extends Endpoint>(
  transport: Transport,
  endpoint: E,
  input: EndpointInput,
  opts: IdempotentRequestOptions = {},
  pacing?: PacingFields,
): ApiPromise<EndpointOutput<E>> {
  return apiPromise(
    async (mode) =>
      transport.request(endpointRequest(endpoint, input, opts.idempotencyKey, pacing, mode), opts),
    transport.requestIdOf,
  );
}
