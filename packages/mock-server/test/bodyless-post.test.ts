// A POST with no body, as `curl -X POST URL` sends it (no content-type, no content-length), to
// each bin over HTTP: the control calls that need no body answer as they do with one, and an
// API call that needs one says what is missing with a 4xx. The newcomer trial got a 500 from
// both bins ("Cannot read properties of undefined (reading 'window')"), where startMockServer
// in a test answered 200: a client's mistake never gets a 5xx.
import { connect } from 'node:net';
import { MOCK_BIN_KINDS, startMockBin } from '@profile-articles/test-utils/mock-bins';
import { describe, expect, it } from 'vitest';

/**
 * `curl -X POST URL [-H header]`: a POST with neither Content-Length nor Transfer-Encoding, over
 * a socket (node:http's client would add `Content-Length: 0`, which the mock always took).
 */
function bodylessPost(url: string, headers: Record<string, string> = {}, chunks?: string[]) {
  const { hostname, port, pathname } = new URL(url);
  const lines = [`POST ${pathname} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (chunks) lines.push('Transfer-Encoding: chunked');
  const body = chunks
    ? `${chunks.map((chunk) => `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`).join('')}0\r\n\r\n`
    : '';
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`),
    );
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', ...rest] = answer.split('\r\n\r\n');
      const text = rest.join('\r\n\r\n');
      // A chunked answer: the JSON is its one chunk.
      const json = /^[0-9a-f]+\r\n/i.test(text) ? (text.split('\r\n')[1] ?? '') : text;
      resolve({ status: Number(head.split(' ')[1]), body: json });
    });
  });
}

describe.each(MOCK_BIN_KINDS)('%s, a POST with no body', (kind) => {
  it('resets on POST /_mock/reset, and answers a bodyless checkout with a 422 and {detail}', async () => {
    const mock = startMockBin(kind, ['--port', '0', '--no-log']);
    const url = await mock.url;
    const reset = await bodylessPost(`${url}/_mock/reset`);
    expect(reset).toEqual({ status: 200, body: JSON.stringify({ reset: true }) });
    const checkout = await bodylessPost(`${url}/api/v1/credits/checkout`, {
      authorization: 'Bearer demo-key',
    });
    expect(checkout.status).toBe(422);
    expect(JSON.parse(checkout.body).detail).toBeDefined();
    expect(mock.stderr()).not.toContain('internal error');
  });

  it('reads a chunked body (no Content-Length) as the same JSON, and refuses one past 1 MiB with a 413', async () => {
    const mock = startMockBin(kind, ['--port', '0', '--no-log']);
    const url = await mock.url;
    const json = { authorization: 'Bearer demo-key', 'content-type': 'application/json' };
    const generate = await bodylessPost(
      `${url}/api/v1/articles`,
      { ...json, 'idempotency-key': 'chunked-1' },
      ['{"profile_', 'id":"ada-lovelace"}'],
    );
    expect(generate.status).toBe(202);
    expect(JSON.parse(generate.body).status).toBe('queued');
    const huge = await bodylessPost(`${url}/api/v1/credits/checkout`, json, [
      '{"credits":500,"pad":"',
      'x'.repeat(1024 * 1024),
      '"}',
    ]);
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body).detail).toMatch(/larger than 1 MiB/);
    expect(mock.stderr()).not.toContain('internal error');
  });
});
