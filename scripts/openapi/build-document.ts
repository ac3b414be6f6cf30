// Builds the OpenAPI 3.1 document from the contract table and the SDK's zod schemas, so the
// published description can never drift from what the SDK validates and the mock enforces.
// The words (summaries, tags, status meanings) come from operation-docs.ts.
import * as z from 'zod/mini';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../packages/mock-server/src/flags.js';
import * as T from '../../packages/sdk/src/schemas/endpoints.js';
import { identifierBounds } from '../../packages/sdk/src/schemas/identifier-bounds.js';
import * as S from '../../packages/sdk/src/schemas/index.js';
import { OPERATION_DOCS, type OperationDocs, PARAMETER_DOCS, STATUS_DOCS, TAGS } from './operation-docs.js';

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

/** `input`: the wire shape. The identifiers' length bounds come from the SDK's internal registry. */
const AS_INPUT = { io: 'input', metadata: identifierBounds, override: asRecord } as const;

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

const HEADERS_BY_STATUS: Record<number, Json> = {
  405: { Allow: { $ref: '#/components/headers/Allow' } },
  429: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
};

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
    out[status] = { description, content: json(schemaOf(schema)) };
  }
  const errors = [...new Set([...endpoint.errors, ...T.TRANSPORT_ERRORS])].sort((a, b) => a - b);
  for (const status of errors) {
    const response: Json = { description: STATUS_DOCS[status], content: json(schemaOf(S.ErrorBodySchema)) };
    if (HEADERS_BY_STATUS[status]) response.headers = HEADERS_BY_STATUS[status];
    out[String(status)] = response;
  }
  out[T.SERVER_FAILURE_RANGE] = {
    description: STATUS_DOCS[500],
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
        RetryAfter: {
          description: 'Integer seconds to wait before retrying',
          schema: { type: 'integer', minimum: 0 },
        },
        Allow: { description: 'The methods this path takes', schema: { type: 'string' } },
      },
      schemas: componentSchemas(),
    },
  };
}

export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
