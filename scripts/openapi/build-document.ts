// Builds the OpenAPI 3.1 document from the contract table and the SDK's zod schemas, so the
// published description can never drift from what the SDK validates and the mock enforces.
// The words (summaries, tags, status meanings) come from operation-docs.ts.
import * as z from 'zod/mini';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../packages/mock-server/src/flags.js';
import * as T from '../../packages/sdk/src/schemas/endpoints.js';
import { identifierBounds } from '../../packages/sdk/src/schemas/identifier-bounds.js';
import * as S from '../../packages/sdk/src/schemas/index.js';
import {
  BAD_HOST_DOCS,
  OPERATION_DOCS,
  type OperationDocs,
  PARAMETER_DOCS,
  STATUS_DOCS,
  TAGS,
} from './operation-docs.js';

type Json = Record<string, unknown>;

/**
 * Any JSON object (an Article's `infobox`) is a loose object without fields in the SDK, which
 * bundles smaller than zod's record; the document keeps writing it as a record of string keys.
 */
function asRecord({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: Json }): void {
  const { def } = zodSchema._zod;
  if (def.type !== 'object' || Object.keys((def as z.core.$ZodObjectDef).shape).length > 0) return;
  if (!('properties' in jsonSchema) || !('additionalProperties' in jsonSchema)) return;
  const { properties: _none, additionalProperties, ...rest } = jsonSchema;
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(jsonSchema, rest, { propertyNames: { type: 'string' }, additionalProperties });
}

/**
 * A timestamp is `format: date-time` (from the SDK's registry) without the pattern the SDK reads
 * it with: that pattern also takes a local time, a tolerant reading the document does not promise.
 */
function asDateTime({ jsonSchema }: { jsonSchema: Json }): void {
  if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
}

/**
 * A checkout takes fields it does not name and ignores them: the interface forbids extra fields
 * only in a ProfileRequest. The SDK's schema strips them, which JSON Schema writes as nothing.
 */
function asIgnoringExtras({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: Json }): void {
  if (zodSchema !== S.CheckoutRequestSchema) return;
  jsonSchema.additionalProperties = true;
  jsonSchema.description = 'Fields other than `credits` are accepted and ignored.';
}

/** `input`: the wire shape. The identifiers' length bounds and the timestamps' format come from the SDK's internal registry. */
const AS_INPUT = {
  io: 'input',
  metadata: identifierBounds,
  override: (context: { zodSchema: z.core.$ZodType; jsonSchema: Json }) => {
    asRecord(context);
    asDateTime(context);
    asIgnoringExtras(context);
  },
} as const;

/**
 * The named shapes of the document, one per schema the SDK exports (`ArticleSchema` becomes
 * `Article`). Plain strings (ids, slugs, timestamps, keys) are written out where used.
 */
const COMPONENTS: Record<string, z.core.$ZodType> = Object.fromEntries(
  Object.entries(S)
    .filter(([name, value]) => name.endsWith('Schema') && value instanceof z.core.$ZodType)
    .map(([name, schema]) => [name.slice(0, -'Schema'.length), schema as z.core.$ZodType])
    .filter(([, schema]) => !isPlainString(schema as z.core.$ZodType))
    // By name: a module namespace's key order is not the same under every loader.
    .sort(([a], [b]) => String(a).localeCompare(String(b))),
);

function isPlainString(schema: z.core.$ZodType): boolean {
  const shape = z.toJSONSchema(schema, AS_INPUT) as Json;
  return shape.type === 'string' && !('enum' in shape);
}

function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  // `input`: the wire shape. Fields with defaults are optional there, as the seed says.
  const { schemas } = z.toJSONSchema(registry, {
    ...AS_INPUT,
    uri: (id) => `#/components/schemas/${id}`,
  }) as {
    schemas: Record<string, Json>;
  };
  const out: Record<string, Json> = {};
  for (const id of Object.keys(COMPONENTS)) {
    const { $schema: _schema, $id: _id, ...rest } = schemas[id]!;
    out[id] = rest;
  }
  return out;
}

/** A component's `$ref` when the schema is one, else the schema written out. */
function schemaOf(schema: z.core.$ZodType): Json {
  const id = Object.entries(COMPONENTS).find(([, component]) => component === schema)?.[0];
  if (id) return { $ref: `#/components/schemas/${id}` };
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, AS_INPUT) as Json;
  return rest;
}

const json = (schema: Json) => ({ 'application/json': { schema } });

/** `idempotency-key` → `Idempotency-Key` for display, `IdempotencyKey` as a component name. */
const headerWords = (name: string) => name.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1));

const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };
const HEADERS_BY_STATUS: Record<number, Json> = {
  401: { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticate' } },
  429: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
};
/** Every answer's headers: its request id, and what its status adds. */
const headersOf = (status: number | undefined): Json => ({
  ...REQUEST_ID,
  ...(status === undefined ? {} : HEADERS_BY_STATUS[status]),
});

/**
 * The refusals a call of `endpoint` can meet before it is served, besides the interface's own
 * statuses: a bad Host (400), a refused Origin or host (403, 421), headers too large (431), and
 * on a POST a body too large or not JSON (413, 415). Not 405: the operation's method is one the
 * path takes. Not 413 or 415 on a GET, which reads no body and answers whatever one it is sent.
 */
function transportErrors(endpoint: T.Endpoint): number[] {
  return [400, ...T.TRANSPORT_ERRORS].filter(
    (status) => status !== 405 && (endpoint.method === 'POST' || (status !== 413 && status !== 415)),
  );
}

/** A bad Host is 400 on every operation; on a checkout 400 is also the interface's range refusal. */
function statusWords(endpoint: T.Endpoint, status: number): string | undefined {
  if (status !== 400) return STATUS_DOCS[status];
  return endpoint.errors.includes(400)
    ? `${STATUS_DOCS[400]}; or ${BAD_HOST_DOCS}`
    : `${BAD_HOST_DOCS[0]?.toUpperCase()}${BAD_HOST_DOCS.slice(1)}`;
}

function parameters(endpoint: T.Endpoint): Json[] {
  const path = Object.entries(endpoint.pathParams).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    description: parameterDocs(name),
    schema: schemaOf(schema),
  }));
  const headers = Object.keys(endpoint.headers).map((name) => ({
    $ref: `#/components/parameters/${headerWords(name).join('')}`,
  }));
  return [...path, ...headers];
}

function headerParameters(): Json {
  const out: Json = {};
  for (const endpoint of Object.values(T.ENDPOINTS as Record<string, T.Endpoint>)) {
    for (const [name, schema] of Object.entries(endpoint.headers)) {
      out[headerWords(name).join('')] = {
        name: headerWords(name).join('-'),
        in: 'header',
        required: true,
        description: parameterDocs(name),
        schema: schemaOf(schema),
      };
    }
  }
  return out;
}

/**
 * The words of one table entry. A new entry fails here, naming what to add, rather than
 * deeper down with "cannot read properties of undefined".
 */
export function docsOf(name: string): OperationDocs {
  const words = (OPERATION_DOCS as Partial<Record<string, OperationDocs>>)[name];
  if (!words) {
    throw new Error(
      `${name} has no summary/description/tag in scripts/openapi/operation-docs.ts: add an OPERATION_DOCS entry`,
    );
  }
  return words;
}

/** The words of a path parameter or header, which every new name needs. */
function parameterDocs(name: string): string {
  const words = PARAMETER_DOCS[name];
  if (!words) {
    throw new Error(
      `"${name}" has no description in scripts/openapi/operation-docs.ts: add it to PARAMETER_DOCS`,
    );
  }
  return words;
}

function responses(name: T.EndpointName, endpoint: T.Endpoint): Json {
  const out: Json = {};
  for (const [status, schema] of Object.entries(endpoint.responses)) {
    const description = docsOf(name).responses[Number(status) as T.SuccessStatus];
    out[status] = { description, headers: headersOf(Number(status)), content: json(schemaOf(schema)) };
  }
  const errors = [...new Set([...endpoint.errors, ...transportErrors(endpoint)])].sort((a, b) => a - b);
  for (const status of errors) {
    out[String(status)] = {
      description: statusWords(endpoint, status),
      headers: headersOf(status),
      content: json(schemaOf(S.ErrorBodySchema)),
    };
  }
  out[T.SERVER_FAILURE_RANGE] = {
    description: STATUS_DOCS[500],
    headers: headersOf(undefined),
    content: json(schemaOf(S.ErrorBodySchema)),
  };
  return out;
}

function paths(): Json {
  const out: Record<string, Json> = {};
  for (const [name, endpoint] of Object.entries(T.ENDPOINTS) as Array<[T.EndpointName, T.Endpoint]>) {
    const docs = docsOf(name);
    const params = parameters(endpoint);
    const operation: Json = {
      operationId: name,
      tags: [docs.tag],
      summary: docs.summary,
      description: docs.description,
      ...(params.length ? { parameters: params } : {}),
      ...(endpoint.body ? { requestBody: { required: true, content: json(schemaOf(endpoint.body)) } } : {}),
      responses: responses(name, endpoint),
    };
    const path = `${T.API_PREFIX}${endpoint.path}`;
    out[path] = { ...out[path], [endpoint.method.toLowerCase()]: operation };
  }
  return out;
}

export function buildOpenApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Profile Article Service',
      version: '1.0.0',
      description:
        'Credit-metered API that reads, generates and updates articles about professional profiles. ' +
        'Generated from the contract table in @profile-articles/sdk; do not edit by hand (pnpm openapi).',
    },
    servers: [
      {
        url: '{base_url}',
        variables: {
          base_url: {
            default: `http://${DEFAULT_HOST}:${DEFAULT_PORT}`,
            description: 'The API origin supplied by the operator',
          },
        },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
    paths: paths(),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
      },
      parameters: headerParameters(),
      headers: {
        XRequestId: {
          description: 'The id of this request, on every answer: quote it when reporting a problem',
          required: true,
          schema: { type: 'string' },
        },
        WWWAuthenticate: {
          description: 'The authentication scheme the API takes: `Bearer`',
          required: true,
          schema: { type: 'string' },
        },
        RetryAfter: {
          description: 'Integer seconds to wait before retrying; on every 429',
          required: true,
          schema: { type: 'integer', minimum: 0 },
        },
      },
      schemas: componentSchemas(),
    },
  };
}

export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
