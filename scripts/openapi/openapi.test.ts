import { readdirSync, readFileSync } from 'node:fs';
import {
  API_PREFIX,
  ENDPOINTS,
  type Endpoint,
  SERVER_FAILURE_RANGE,
  TRANSPORT_ERRORS,
} from '@profile-articles/sdk/internal';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, docsOf, renderOpenApiDocument } from './build-document.js';
import { OPERATION_DOCS } from './operation-docs.js';

const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');

describe('docs/openapi.json', () => {
  it('is current: run `pnpm openapi` after changing a schema', () => {
    expect(committed).toBe(renderOpenApiDocument());
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(JSON.parse(committed));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has every table entry, with its statuses, the transport-level ones, and its words', () => {
    const doc = buildOpenApiDocument() as any;
    const tags = doc.tags.map((tag: { name: string }) => tag.name);
    const entries = Object.entries(ENDPOINTS as Record<string, Endpoint>);
    for (const [name, endpoint] of entries) {
      const op = doc.paths[`${API_PREFIX}${endpoint.path}`]?.[endpoint.method.toLowerCase()];
      expect(op, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      expect(op.operationId).toBe(name);
      // What a call of this operation can meet: the interface's statuses, a bad Host (400), a
      // refused origin or host, oversized headers, and on a POST an oversized or non-JSON body.
      // Not 405 (this operation's method is the path's) nor 413/415 on a GET (it reads no body).
      const reachable = TRANSPORT_ERRORS.filter(
        (status) => status !== 405 && (endpoint.method === 'POST' || (status !== 413 && status !== 415)),
      );
      const listed = [
        ...Object.keys(endpoint.responses),
        ...[...endpoint.errors, 400, ...reachable].map(String),
      ];
      expect(Object.keys(op.responses).sort(), name).toEqual(
        [...new Set(listed), SERVER_FAILURE_RANGE].sort(),
      );
      expect(op.tags, name).toHaveLength(1);
      expect(tags, name).toContain(op.tags[0]);
      expect(op.summary, name).toEqual(expect.stringMatching(/\S/));
      expect(op.description, name).toEqual(expect.stringMatching(/\S/));
      for (const [status, response] of Object.entries(op.responses) as Array<[string, any]>) {
        expect(response.description, `${name} ${status}`).toEqual(expect.stringMatching(/\S/));
      }
    }
    const operations = Object.values(doc.paths).flatMap((item: any) => Object.values(item));
    expect(operations).toHaveLength(entries.length);
    expect(doc.paths['/api/v1/articles'].post.responses['429'].headers['Retry-After']).toBeDefined();
    expect(doc.components.headers.RetryAfter.required).toBe(true);
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({
      required: true,
      schema: { minLength: 1, maxLength: 200 },
    });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes the headers every answer carries: X-Request-Id always, WWW-Authenticate on 401, Retry-After on 429', () => {
    const doc = buildOpenApiDocument() as any;
    expect(doc.components.headers.XRequestId).toMatchObject({ required: true, schema: { type: 'string' } });
    for (const [path, item] of Object.entries(doc.paths) as Array<[string, any]>) {
      for (const [method, op] of Object.entries(item) as Array<[string, any]>) {
        for (const [status, response] of Object.entries(op.responses) as Array<[string, any]>) {
          const where = `${method} ${path} ${status}`;
          expect(response.headers?.['X-Request-Id'], where).toEqual({
            $ref: '#/components/headers/XRequestId',
          });
          if (status === '401')
            expect(response.headers['WWW-Authenticate'], where).toEqual({
              $ref: '#/components/headers/WWWAuthenticate',
            });
          if (status === '429')
            expect(response.headers['Retry-After'], where).toEqual({
              $ref: '#/components/headers/RetryAfter',
            });
        }
        expect(op.responses['400'].description, `${method} ${path}`).toMatch(/Host/);
      }
    }
    expect(doc.paths['/api/v1/credits/checkout'].post.responses['400'].description).toMatch(/allowed range/);
  });

  it("gives the timestamps format date-time, without the SDK's tolerant pattern", () => {
    const { Article } = (buildOpenApiDocument() as any).components.schemas;
    for (const field of ['created_at', 'updated_at'])
      expect(Article.properties[field], field).toEqual({ type: 'string', format: 'date-time' });
    expect(committed).not.toContain('-02-29'); // the leap-day branch of the SDK's pattern
  });

  it('describes a checkout as taking and ignoring fields it does not name', () => {
    const { CheckoutRequest } = (buildOpenApiDocument() as any).components.schemas;
    expect(CheckoutRequest.additionalProperties).toBe(true);
    expect(CheckoutRequest.description).toMatch(/ignored/);
  });

  it('names the file to add words to when a table entry has none', () => {
    expect(() => docsOf('listVersions')).toThrow(
      'listVersions has no summary/description/tag in scripts/openapi/operation-docs.ts',
    );
  });

  it('keeps the seed’s rules in the schemas: strict requests, defaults, enums', () => {
    const { schemas } = (buildOpenApiDocument() as any).components;
    expect(schemas.ProfileRequest).toMatchObject({ additionalProperties: false, required: ['profile_id'] });
    expect(schemas.ProfileRequest.properties.profile_id).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(schemas.Pricing.properties.requests_per_minute.default).toBe(120);
    expect(schemas.JobStatus.enum).toEqual(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
    expect(schemas.Article.properties.sources.items).toEqual({ $ref: '#/components/schemas/Source' });
  });

  it('names every schema the table answers or takes as a component', () => {
    const doc = buildOpenApiDocument() as any;
    for (const [name, endpoint] of Object.entries(ENDPOINTS as Record<string, Endpoint>)) {
      const op = doc.paths[`${API_PREFIX}${endpoint.path}`][endpoint.method.toLowerCase()];
      const refs = Object.values(op.responses).map(
        (response: any) => response.content['application/json'].schema,
      );
      if (endpoint.body) refs.push(op.requestBody.content['application/json'].schema);
      for (const ref of refs)
        expect(ref, name).toEqual({ $ref: expect.stringMatching(/^#\/components\/schemas\//) });
    }
  });

  it('keeps its words out of the SDK bundle', () => {
    const dist = new URL('../../packages/sdk/dist/', import.meta.url);
    const bundles = readdirSync(dist).filter((file) => /\.(c?js)$/.test(file));
    expect(bundles.length).toBeGreaterThan(0);
    const code = bundles.map((file) => readFileSync(new URL(file, dist), 'utf8')).join('\n');
    for (const docs of Object.values(OPERATION_DOCS)) expect(code).not.toContain(docs.description);
  });
});
