// Every answer of the mock carries `X-Request-Id`, whichever way it was answered (the fast lane,
// the router, a refusal, a control endpoint, the payment page), over node:http and msw alike,
// and the journal records the same id for the API's requests: what a billing question quotes.
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { type Harness, type TransportKind, useMock } from '@profile-articles/test-utils/mock-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawAnswer } from './raw-http.js';

const idOf = (headers: Headers) => headers.get('x-request-id');

/** One request of each kind of answer the mock gives, with the status it must get. */
async function everyKindOfAnswer(h: Harness) {
  const paid = await h.call('POST', '/api/v1/credits/checkout', { body: { credits: 100 } });
  const answers = {
    balance: await h.call('GET', '/api/v1/credits'),
    generate: await h.call('POST', '/api/v1/articles', {
      body: { profile_id: 'ada-lovelace' },
      idempotencyKey: 'rid-1',
    }),
    notFound: await h.call('GET', '/api/v1/articles/notfound-x'),
    unauthorized: await h.call('GET', '/api/v1/credits', { key: null }),
    invalid: await h.call('POST', '/api/v1/articles', { body: {}, idempotencyKey: 'rid-2' }),
    notJson: await h.call('POST', '/api/v1/articles', {
      rawBody: 'x',
      headers: { 'content-type': 'text/plain' },
    }),
    wrongMethod: await h.call('DELETE', '/api/v1/credits'),
    head: await h.call('HEAD', '/api/v1/credits'),
    noRoute: await h.call('GET', '/api/v2/credits'),
    badEncoding: await h.call('GET', '/api/v1/jobs/%zz'),
    control: await h.call('GET', '/_mock/stats'),
    controlInvalid: await h.call('POST', '/_mock/clock/advance', { body: { ms: -1 } }),
    root: await h.call('GET', '/'),
    // The payment page answers HTML: fetched as a browser would, outside the JSON harness.
    paymentPage: await fetch(paid.body.url),
    paymentRefused: await fetch(`${paid.body.url}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=wrong',
    }),
  };
  return { paid, ...answers };
}

describe.each<TransportKind>(['http', 'msw'])('request ids over %s', (kind) => {
  const h = useMock(kind);

  it('are on every answer, distinct, printable and short', async () => {
    const answers = await everyKindOfAnswer(h);
    const statuses = Object.fromEntries(Object.entries(answers).map(([name, a]) => [name, a.status]));
    expect(statuses).toMatchObject({
      balance: 200,
      generate: 202,
      notFound: 404,
      unauthorized: 401,
      invalid: 422,
      notJson: 415,
      wrongMethod: 405,
      head: 405,
      noRoute: 404,
      badEncoding: 422,
      control: 200,
      controlInvalid: 422,
      root: 200,
      paymentPage: 200,
      paymentRefused: 403,
    });
    const ids = Object.values(answers).map((answer) => idOf(answer.headers));
    for (const id of ids) expect(id).toMatch(/^[\x21-\x7e]{1,64}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('are journalled as requestId, the same id the answer carried', async () => {
    const read = await h.call('GET', '/api/v1/credits');
    const refused = await h.call('GET', '/api/v1/credits', { key: 'nope' });
    const journal = h.service.journal().slice(0, 2).reverse(); // newest first
    expect(journal.map((entry) => [entry.status, entry.requestId])).toEqual([
      [200, idOf(read.headers)],
      [401, idOf(refused.headers)],
    ]);
    const listed = await h.call('GET', '/_mock/requests');
    expect(listed.body.requests[0].requestId).toBe(idOf(refused.headers));
  });

  it('are on answers the router gives for a fault, and on a lost answer the journal records', async () => {
    h.service.setFaults({ seed: 1, rules: [{ route: 'GET /api/v1/credits', kind: 'fail', probability: 1 }] });
    const failed = await h.call('GET', '/api/v1/credits');
    expect(failed.status).toBe(500);
    expect(idOf(failed.headers)).toBe(h.service.journal()[0]?.requestId);
    h.service.setFaults({ seed: 1, rules: [{ route: 'GET /api/v1/credits', kind: 'lost', probability: 1 }] });
    const lost = await h.call('GET', '/api/v1/credits');
    expect(lost.status).toBe(500);
    expect(idOf(lost.headers)).toBe(h.service.journal()[0]?.requestId);
  });
});

describe('request ids the node adapter writes itself', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('are on the 400 for a malformed Host, and on the fast lane’s answers', async () => {
    const badHost = await rawAnswer(
      server.port,
      'GET /api/v1/credits HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n',
    );
    expect(badHost).toMatch(/^HTTP\/1\.1 400 /);
    expect(badHost).toMatch(/\r\nx-request-id: [\x21-\x7e]+\r\n/i);
    const fast = await rawAnswer(
      server.port,
      `GET /api/v1/credits HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer demo-key\r\nConnection: close\r\n\r\n`,
    );
    expect(fast).toMatch(/^HTTP\/1\.1 200 /);
    const id = /\r\nx-request-id: ([^\r]+)\r\n/i.exec(fast)?.[1];
    expect(id).toBe(server.service.journal()[0]?.requestId);
  });
});
