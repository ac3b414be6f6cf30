import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, renderOpenApiDocument } from './build-document.js';

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

  it('lists every endpoint with every status of the interface, and the transport-level ones', () => {
    const doc = buildOpenApiDocument() as any;
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).sort();
    // Any request can be refused before an endpoint sees it.
    const transport = ['403', '405', '413', '415', '421', '431', '5XX'];
    const expected = (...listed: string[]) => [...listed, ...transport].sort();
    expect(statuses('/api/v1/articles/{profile_id}', 'get')).toEqual(
      expected('200', '401', '402', '404', '422', '429'),
    );
    // Generate and update answer alike: 200 (existing article or replay) or 202 (job started).
    const jobStarter = expected('200', '202', '401', '402', '404', '409', '422', '429');
    expect(statuses('/api/v1/articles', 'post')).toEqual(jobStarter);
    expect(statuses('/api/v1/articles/{profile_id}/update', 'post')).toEqual(jobStarter);
    expect(statuses('/api/v1/jobs/{job_id}', 'get')).toEqual(expected('200', '401', '404', '422', '429'));
    expect(statuses('/api/v1/credits', 'get')).toEqual(expected('200', '401', '422', '429'));
    expect(statuses('/api/v1/credits/checkout', 'post')).toEqual(
      expected('200', '400', '401', '422', '429', '502', '503'),
    );
    const operations = Object.values(doc.paths).flatMap((item: any) => Object.values(item)) as any[];
    expect(operations.map((op) => op.operationId).sort()).toEqual([
      'createCheckout',
      'generateArticle',
      'getBalance',
      'getJob',
      'readArticle',
      'updateArticle',
    ]);
    for (const op of operations) {
      expect(op.tags, op.operationId).toHaveLength(1);
      expect(op.description, op.operationId).toEqual(expect.any(String));
      for (const [status, response] of Object.entries(op.responses) as Array<[string, any]>) {
        expect(response.description, `${op.operationId} ${status}`).toEqual(expect.any(String));
      }
    }
    expect(doc.paths['/api/v1/articles'].post.responses['429'].headers['Retry-After']).toBeDefined();
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({
      required: true,
      schema: { minLength: 1, maxLength: 200 },
    });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('keeps the seed’s rules in the schemas: strict requests, defaults, enums', () => {
    const { schemas } = (buildOpenApiDocument() as any).components;
    expect(schemas.ProfileRequest).toMatchObject({ additionalProperties: false, required: ['profile_id'] });
    expect(schemas.ProfileRequest.properties.profile_id).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(schemas.Pricing.properties.requests_per_minute.default).toBe(120);
    expect(schemas.JobStatus.enum).toEqual(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
    expect(schemas.Article.properties.sources.items).toEqual({ $ref: '#/components/schemas/Source' });
  });
});
