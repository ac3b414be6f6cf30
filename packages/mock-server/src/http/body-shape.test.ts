import { describe, expect, it } from 'vitest';
import { malformedText, shapeBody, trickleStream } from './body-shape.js';

describe('body shapes', () => {
  it('malformed: never JSON, whatever the text', () => {
    for (const text of [
      '{}',
      '{"a":1}',
      '[1,2]',
      '"x"',
      '',
      '1',
      JSON.stringify({ detail: 'x'.repeat(99) }),
    ]) {
      expect(() => JSON.parse(malformedText(text)), text).toThrow();
    }
  });

  it('trickle: every byte, in order, in chunks of about a tenth of the rate, and no sooner than the rate', async () => {
    const bytes = new TextEncoder().encode('x'.repeat(250));
    const started = Date.now();
    const reader = trickleStream(bytes, 1000).getReader();
    const sizes: number[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read())
      sizes.push(next.value.length);
    expect(sizes).toEqual([100, 100, 50]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('trickle: an aborted request ends the stream, with nothing more sent and no error', async () => {
    const abort = new AbortController();
    const reader = trickleStream(new Uint8Array(100), 10, abort.signal).getReader();
    const read = reader.read();
    abort.abort(new Error('gone'));
    await expect(read).resolves.toEqual({ done: true, value: undefined });
  });

  it('keeps the status and headers, drops the length', async () => {
    const response = new Response('{"a":1}', {
      status: 202,
      headers: { 'x-request-id': 'req_1', 'content-type': 'application/json', 'content-length': '7' },
    });
    const empty = await shapeBody(response.clone(), { body: 'empty' });
    expect(empty.response.status).toBe(202);
    expect(empty.response.headers.get('x-request-id')).toBe('req_1');
    expect(empty.response.headers.get('content-length')).toBeNull();
    expect(await empty.response.text()).toBe('');
    const malformed = await shapeBody(response, { body: 'malformed' });
    expect(malformed.text).toBe('{"a');
  });
});
