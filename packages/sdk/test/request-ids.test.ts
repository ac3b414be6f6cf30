// Request ids and raw answers against the real mock over HTTP, over both of the SDK's ways of
// sending (node:http and fetch): every error of an answer has the answer's `X-Request-Id`, a
// wait's JobFailedError has the last poll's, and every single-request call is an ApiPromise
// whose `withResponse()` and `asResponse()` give the answer itself. The mock's journal says which
// request each id belongs to.
import type { MockService } from '@profile-articles/mock-server';
import { rejectionOf } from '@profile-articles/test-utils/rejection';
import { JOB, reply, scriptedServer } from '@profile-articles/test-utils/scripted-server';
import { startMock } from '@profile-articles/test-utils/start-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  JobFailedError,
  NotFoundError,
  ProfileArticles,
  ResponseValidationError,
  TimeoutError,
} from '../src/node.js';
import { TRANSPORTS, useScriptedServers } from './scripted-client.js';

let service: MockService;
let baseUrl: string;
let close: () => unknown;
beforeAll(async () => {
  const mock = await startMock('http', {
    accounts: [{ id: 'acme', apiKeys: ['key-acme-1'], credits: 1000 }],
    // Jobs move only when a test moves the mock's clock.
    jobs: { queuedMs: 60_000, runningMs: 60_000 },
  });
  ({ service, baseUrl } = mock);
  close = mock.close;
});
afterAll(() => close());
beforeEach(() => service.reset());

/** The journal's request id of the last request to `path`. */
const lastIdOf = (method: string, path: string) =>
  service.journal().find((entry) => entry.method === method && entry.path === path)?.requestId; // newest first

describe.each(TRANSPORTS)('over $name', ({ options }) => {
  const client = () => new ProfileArticles({ apiKey: 'key-acme-1', baseUrl, pollIntervalMs: 0, ...options });

  it('an ApiError carries the request id of the answer it was made from, and keeps its headers', async () => {
    const error = await rejectionOf(client().articles.read('nobody'), NotFoundError);
    expect(error.requestId).toMatch(/^req_\d+$/);
    expect(error.requestId).toBe(lastIdOf('GET', '/api/v1/articles/nobody'));
    expect(error.headers['x-request-id']).toBe(error.requestId);
    expect(error.headers['content-type']).toBe('application/json');
  });

  it('withResponse() gives the typed data, the Response and its request id', async () => {
    const { data, response, requestId } = await client().credits.balance().withResponse();
    expect(data.credits).toBe(1000);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(requestId).toBe(lastIdOf('GET', '/api/v1/credits'));
  });

  it('asResponse() gives the Response with its body unread, and awaiting the call still gives the value', async () => {
    const response = await client().credits.balance().asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('x-request-id')).toBe(lastIdOf('GET', '/api/v1/credits'));
    expect(await response.json()).toMatchObject({ credits: 1000 });
    const balance = await client().credits.balance();
    expect(balance.credits).toBe(1000);
  });

  it('every single-request call is an ApiPromise', async () => {
    const c = client();
    const started = await c.articles.generate('ada-lovelace').withResponse();
    expect(started.response.status).toBe(202);
    expect(started.requestId).toBe(lastIdOf('POST', '/api/v1/articles'));
    const jobId = (started.data as { job_id: string }).job_id;
    const polled = await c.jobs.get(jobId).asResponse();
    expect(polled.status).toBe(200);
    service.advanceClock(120_000);
    const read = await c.articles.read('ada-lovelace').withResponse();
    expect(read.data.credits_charged).toBe(1);
    expect(read.requestId).toBe(lastIdOf('GET', '/api/v1/articles/ada-lovelace'));
    const updated = await c.articles.update('ada-lovelace').asResponse();
    expect(updated.status).toBe(202);
    service.advanceClock(120_000);
    const checkout = await c.credits.checkout(100).withResponse();
    expect(checkout.data.url).toContain('/checkout/');
    expect(checkout.requestId).toBe(lastIdOf('POST', '/api/v1/credits/checkout'));
  });

  it('asResponse() of an error answer rejects with the typed error, as awaiting does', async () => {
    const error = await rejectionOf(client().articles.read('nobody').asResponse(), NotFoundError);
    expect(error.requestId).toBe(lastIdOf('GET', '/api/v1/articles/nobody'));
  });

  it("a wait's JobFailedError carries the request id of the poll that saw the job fail", async () => {
    const c = client();
    const error = await rejectionOf(
      c.articles.generateAndWait('fail-someone', {
        // Each poll moves the mock's clock: the job fails after a few of them.
        onPoll: () => service.advanceClock(60_000),
      }),
      JobFailedError,
    );
    expect(error.job.status).toBe('failed');
    expect(error.requestId).toMatch(/^req_\d+$/);
    expect(error.requestId).toBe(lastIdOf('GET', `/api/v1/jobs/${error.job.job_id}`));
  });

  it('toJSON() gives name, message, status, requestId, detail and attempts, and nothing else', async () => {
    const error = await rejectionOf(client().articles.read('nobody'), NotFoundError);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'NotFoundError',
      message: error.message,
      status: 404,
      requestId: error.requestId,
      detail: error.detail,
      attempts: 1,
    });
    const generate = await rejectionOf(
      client().articles.generate('notfound-x', { idempotencyKey: 'my-key' }),
      NotFoundError,
    );
    expect(Object.keys(generate.toJSON())).toEqual([
      'name',
      'message',
      'status',
      'requestId',
      'detail',
      'idempotencyKey',
      'attempts',
    ]);
    expect(generate.toJSON().idempotencyKey).toBe('my-key');
  });
});

describe.each(TRANSPORTS)('raw answers and last polls over $name, from a scripted server', ({ options }) => {
  const { setup, track } = useScriptedServers(options);

  it('asResponse() hands over a 2xx the interface would refuse, without validating it', async () => {
    const { client } = await setup([reply(200, { credits: 'many' }, { 'x-request-id': 'req-odd' })]);
    const response = await client.credits.balance().asResponse();
    expect(await response.json()).toEqual({ credits: 'many' });
    const refused = await rejectionOf(client.credits.balance(), ResponseValidationError);
    expect(refused.requestId).toBe('req-odd');
  });

  it('the body goes to whichever was asked first: the other form is an InvalidArgumentError', async () => {
    const { client } = await setup([reply(200, { credits: 5, pricing: {} })]);
    const raw = client.credits.balance();
    const response = await raw.asResponse();
    expect(response.bodyUsed).toBe(false);
    await rejectionOf(raw, InvalidArgumentError);
    await rejectionOf(raw.withResponse(), InvalidArgumentError);
    const parsed = client.credits.balance();
    expect((await parsed).credits).toBe(5);
    await rejectionOf(parsed.asResponse(), InvalidArgumentError);
    // Asked again, the same form gives the same answer.
    expect((await parsed.withResponse()).data.credits).toBe(5);
  });

  it("a wait's TimeoutError carries the last answered poll's request id", async () => {
    let second: () => void = () => {};
    const asked = new Promise<void>((resolve) => {
      second = resolve;
    });
    const server = track(
      await scriptedServer([
        reply(200, JOB, { 'x-request-id': 'req-first-poll' }),
        // The second poll is never answered: the wait runs out while it hangs.
        () => second(),
      ]),
    );
    const client = new ProfileArticles({ apiKey: 'sk-secret', baseUrl: server.url, ...options });
    const waiting = client.jobs.waitFor(JOB.job_id, { intervalMs: 0, timeoutMs: 2000 });
    await asked;
    const error = await rejectionOf(waiting, TimeoutError);
    expect(error.job?.status).toBe('queued');
    expect(error.requestId).toBe('req-first-poll');
  });
});
