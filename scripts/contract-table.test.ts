// The contract table is the one place an endpoint is written down. This test walks it: every
// entry must be answered by the mock with a success the table lists (a missing operation is a
// 500, a missing route a 404 or 405: both fail), and must have an SDK method bound to it that
// sends exactly that request. Nothing here lists the endpoints; only sample values by field name.
import { randomUUID } from 'node:crypto';
import { startMockServer } from '@profile-articles/mock-server';
import { isJob, ProfileArticles } from '@profile-articles/sdk';
import {
  API_PREFIX,
  answerSchema,
  ENDPOINTS,
  type Endpoint,
  fillPath,
  RESOURCE_ENDPOINTS,
} from '@profile-articles/sdk/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';

type Table = Readonly<Record<string, Endpoint>>;

const PROFILE = 'ada-lovelace';
const KEY = 'demo-key';

/** A well-formed value for each input the table names (path parameters, body fields, headers). */
const samples: Record<string, unknown> = { profile_id: PROFILE, credits: 100 };
const sample = (name: string): unknown => {
  if (name === 'idempotency-key') return randomUUID();
  if (!(name in samples)) expect.fail(`no sample value for "${name}": add one to this test`);
  return samples[name];
};

/** The names of an entry's inputs a method takes as arguments: path parameters, then body fields. */
function argumentNames(endpoint: Endpoint): string[] {
  const body = endpoint.body ? (z.toJSONSchema(endpoint.body) as { properties?: object }).properties : {};
  return [...Object.keys(endpoint.pathParams), ...Object.keys(body ?? {})];
}

function params(endpoint: Endpoint): Record<string, string> {
  return Object.fromEntries(Object.keys(endpoint.pathParams).map((name) => [name, String(sample(name))]));
}

const requestPath = (endpoint: Endpoint) => `${API_PREFIX}${fillPath(endpoint, params(endpoint))}`;

/** A well-formed request for `endpoint`, built from the table alone. */
function wellFormed(baseUrl: string, endpoint: Endpoint): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${KEY}` };
  for (const name of Object.keys(endpoint.headers)) headers[name] = String(sample(name));
  let body: string | undefined;
  if (endpoint.body) {
    headers['content-type'] = 'application/json';
    const fields = argumentNames(endpoint).filter((name) => !(name in endpoint.pathParams));
    body = JSON.stringify(Object.fromEntries(fields.map((name) => [name, sample(name)])));
  }
  return fetch(`${baseUrl}${requestPath(endpoint)}`, {
    method: endpoint.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

/** Where a contributor adds what a check found missing. */
const CHECKLIST = "see CONTRIBUTING.md 'Adding an endpoint'";

/**
 * Why the mock's answer to a well-formed request of entry `name` is wrong, or undefined when
 * it is a success the table lists with a body its schema accepts. An answer with no schema in
 * the table fails, as do a 404 or 405 (no route) and a 5xx (no operation).
 */
async function mockFault(name: string, endpoint: Endpoint, answer: Response): Promise<string | undefined> {
  const body = await answer.json().catch(() => undefined);
  const answered = `it answered ${answer.status} ${JSON.stringify(body)}`;
  if (answer.status >= 500) {
    return `no mock operation answers ${name}: add it in packages/mock-server/src/routes/api.ts (${CHECKLIST}); ${answered}`;
  }
  if (answer.status === 404 || answer.status === 405) {
    return `no mock route takes ${endpoint.method} ${endpoint.path} (${name}): the routes come from the table in packages/mock-server/src/routes/api.ts (${CHECKLIST}); ${answered}`;
  }
  if (answer.status >= 300) return `${name}: a well-formed request was refused; ${answered}`;
  const schema = answerSchema(endpoint, answer.status);
  if (!schema) return `${name}: answered ${answer.status}, which the table does not list`;
  const parsed = schema.safeParse(body);
  return parsed.success ? undefined : `${name}: answered a ${answer.status} body its schema refuses`;
}

/** The SDK method bound to each entry, by the resources' own declarations. */
function bindingOf(name: string): { resource: string; method: string } | undefined {
  for (const [resource, methods] of Object.entries(RESOURCE_ENDPOINTS)) {
    for (const [method, endpoint] of Object.entries(methods)) {
      if (endpoint === name) return { resource, method };
    }
  }
  return undefined;
}

const unbound = (table: Table) => Object.keys(table).filter((name) => !bindingOf(name));

/** An entry added to the table and nowhere else: the checks below must catch it. */
const withUntried: Table = {
  ...ENDPOINTS,
  listArticles: {
    method: 'GET',
    path: '/articles',
    pathParams: {},
    headers: {},
    responses: { 200: z.array(z.string()) },
    errors: [401],
  },
};

describe('the contract table', () => {
  let server: Awaited<ReturnType<typeof startMockServer>>;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
    // An existing article and a job of this account, so every entry has something to answer.
    const client = new ProfileArticles({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const started = await client.articles.generate(PROFILE);
    const job = isJob(started) ? started : await client.articles.update(PROFILE);
    samples.job_id = job.job_id;
    server.service.advanceClock(60 * 60 * 1000);
  });
  afterAll(() => server.close());

  it('every entry is answered by a mock operation with a success the table lists', async () => {
    // Jobs another test of this file started (its update) end first: a shuffled run that ran it
    // before this one got a 409 for this update, another job being active for the profile.
    server.service.advanceClock(60 * 60 * 1000);
    const faults: string[] = [];
    for (const [name, endpoint] of Object.entries(ENDPOINTS as Table)) {
      const fault = await mockFault(name, endpoint, await wellFormed(server.url, endpoint));
      if (fault) faults.push(fault);
    }
    expect(faults).toEqual([]);
  });

  it('an entry the mock has no operation for fails that check', async () => {
    const untried = withUntried.listArticles!;
    expect(await mockFault('listArticles', untried, await wellFormed(server.url, untried))).toMatch(
      /^no mock route takes GET \/articles \(listArticles\): .* it answered 40[45] /,
    );
  });

  it('every entry has an SDK method bound to it, and the method sends that request', async () => {
    const missing = unbound(ENDPOINTS);
    expect(
      missing,
      `no SDK method is bound to ${missing.join(', ')}: add the method to its resource in ` +
        'packages/sdk/src/resources/ and name the entry in that resource’s *_ENDPOINTS map ' +
        `(a new resource also goes in packages/sdk/src/resources/bindings.ts and client.ts; ${CHECKLIST})`,
    ).toEqual([]);
    const client = new ProfileArticles({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    for (const [name, endpoint] of Object.entries(ENDPOINTS as Table)) {
      const { resource, method } = bindingOf(name)!;
      const target = client[resource as keyof typeof RESOURCE_ENDPOINTS] as unknown as Record<
        string,
        (...args: unknown[]) => Promise<unknown>
      >;
      expect(typeof target[method], `${resource}.${method}`).toBe('function');
      // Answers do not matter here, only the request the method sent.
      await target[method]!(...argumentNames(endpoint).map(sample)).catch(() => undefined);
      const sent = server.service.journal()[0]; // newest first
      expect({ name, method: sent?.method, path: sent?.path }).toEqual({
        name,
        method: endpoint.method,
        path: requestPath(endpoint),
      });
    }
  });

  it('an entry no method is bound to fails that check', () => {
    // toContain, not toEqual: a real unbound entry is the check above's failure, not this one's.
    expect(unbound(withUntried)).toContain('listArticles');
  });
});
