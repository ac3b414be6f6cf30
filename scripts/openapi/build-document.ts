// Builds the OpenAPI 3.1 document from the SDK's zod schemas, so the published description
// can never drift from what the SDK validates and the mock server enforces.
import * as z from 'zod/mini';
import * as S from '../../packages/sdk/src/schemas/index.js';

type Json = Record<string, unknown>;

const COMPONENTS: Record<string, z.core.$ZodType> = {
  Source: S.SourceSchema,
  Article: S.ArticleSchema,
  ReadResponse: S.ReadResponseSchema,
  JobStatus: S.JobStatusSchema,
  Job: S.JobSchema,
  Pricing: S.PricingSchema,
  BalanceResponse: S.BalanceResponseSchema,
  ProfileRequest: S.ProfileRequestSchema,
  CheckoutRequest: S.CheckoutRequestSchema,
  CheckoutSessionResponse: S.CheckoutSessionResponseSchema,
  ErrorBody: S.ErrorBodySchema,
};

function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  // `input`: the wire shape. Fields with defaults are optional there, as the seed says.
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
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

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: Json) => ({ 'application/json': { schema } });

const ERROR_TEXT: Record<string, string> = {
  '400': 'Credit purchase outside the allowed range',
  '401': 'Missing or invalid API key',
  '402': 'Insufficient credits',
  '404': 'Profile or job not found, unavailable or inaccessible',
  '409':
    'Another job is active for this profile, or the idempotency key was used for a different profile or operation',
  '422': 'Invalid request, including a missing Idempotency-Key',
  '429': 'Rate limit exceeded',
  '502': 'Checkout unavailable',
  '503': 'Payments not configured',
};

function errors(...statuses: string[]): Json {
  const out: Json = {};
  for (const status of statuses) {
    const response: Json = { description: ERROR_TEXT[status], content: json(ref('ErrorBody')) };
    if (status === '429') response.headers = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };
    out[status] = response;
  }
  return out;
}

const profileIdParam = {
  name: 'profile_id',
  in: 'path',
  required: true,
  description: 'The profile slug: the last path segment of the profile address',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
};
const idempotencyKeyParam = { $ref: '#/components/parameters/IdempotencyKey' };

export function buildOpenApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Profile Article Service',
      version: '1.0.0',
      description:
        'Credit-metered API that reads, generates and updates articles about professional profiles. ' +
        'Generated from the zod schemas in @profile-articles/sdk; do not edit by hand (pnpm openapi).',
    },
    servers: [
      {
        url: '{base_url}',
        variables: {
          base_url: {
            default: 'http://127.0.0.1:4010',
            description: 'The API origin supplied by the operator',
          },
        },
      },
    ],
    security: [{ bearerAuth: [] }],
    paths: {
      '/api/v1/articles/{profile_id}': {
        get: {
          operationId: 'readArticle',
          summary: 'Read the current article (1 credit). Never starts generation.',
          parameters: [profileIdParam],
          responses: {
            '200': { description: 'The article; 1 credit charged', content: json(ref('ReadResponse')) },
            ...errors('401', '402', '404', '422', '429'),
          },
        },
      },
      '/api/v1/articles': {
        post: {
          operationId: 'generateArticle',
          summary: 'Generate an article (100 credits reserved), or receive the existing one (1 credit)',
          parameters: [idempotencyKeyParam],
          requestBody: { required: true, content: json(ref('ProfileRequest')) },
          responses: {
            '200': {
              description:
                'The article existed (ReadResponse, 1 credit), or a replay of a terminal job (Job)',
              content: json({ oneOf: [ref('ReadResponse'), ref('Job')] }),
            },
            '202': { description: 'Generation started; poll the job', content: json(ref('Job')) },
            ...errors('401', '402', '404', '409', '422', '429'),
          },
        },
      },
      '/api/v1/articles/{profile_id}/update': {
        post: {
          operationId: 'updateArticle',
          summary: 'Refresh an existing article with a new research run (100 credits)',
          parameters: [profileIdParam, idempotencyKeyParam],
          responses: {
            '200': { description: 'Replay of a terminal update job', content: json(ref('Job')) },
            '202': { description: 'Update queued or running; poll the job', content: json(ref('Job')) },
            ...errors('401', '402', '404', '409', '422', '429'),
          },
        },
      },
      '/api/v1/jobs/{job_id}': {
        get: {
          operationId: 'getJob',
          summary: 'Poll a job (free). Poll about every 10 seconds while queued or running.',
          parameters: [
            { name: 'job_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          ],
          responses: {
            '200': {
              description: 'The job; on success `article` holds the result snapshot',
              content: json(ref('Job')),
            },
            ...errors('401', '404', '422', '429'),
          },
        },
      },
      '/api/v1/credits': {
        get: {
          operationId: 'getBalance',
          summary: 'The shared balance and the account’s terms and limits (free)',
          responses: {
            '200': { description: 'Balance and pricing', content: json(ref('BalanceResponse')) },
            ...errors('401', '422', '429'),
          },
        },
      },
      '/api/v1/credits/checkout': {
        post: {
          operationId: 'createCheckout',
          summary: 'Create a payment checkout; credits are added after payment',
          requestBody: { required: true, content: json(ref('CheckoutRequest')) },
          responses: {
            '200': { description: 'Open `url` to pay', content: json(ref('CheckoutSessionResponse')) },
            ...errors('400', '401', '422', '429', '502', '503'),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description: 'Replays of the same key return the original operation without another charge',
          schema: { type: 'string', minLength: 1, maxLength: 200 },
        },
      },
      headers: {
        RetryAfter: {
          description: 'Integer seconds to wait before retrying',
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
