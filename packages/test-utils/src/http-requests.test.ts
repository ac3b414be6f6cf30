import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { afterEach, describe, expect, it } from 'vitest';
import { clientRequestsDuring, watchServerRequests } from './http-requests.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const balance = (server: MockServer) =>
  fetch(`${server.url}/api/v1/credits`, { headers: { authorization: 'Bearer demo-key' } }).then((r) =>
    r.text(),
  );

describe('observing one server’s requests in a process where others run', () => {
  it('counts the requests of the server watched, not those another server starts meanwhile', async () => {
    const [ours, other] = await Promise.all([startMockServer({ port: 0 }), startMockServer({ port: 0 })]);
    servers.push(ours, other);
    const paths: string[] = [];
    const stop = watchServerRequests(ours.port, ({ request }) => paths.push(request.url ?? ''));
    try {
      await Promise.all([balance(ours), balance(other), balance(other)]);
    } finally {
      stop();
    }
    await balance(ours); // after stop: not seen
    expect(paths).toEqual(['/api/v1/credits']);
  });

  it('counts the requests node:http sends to one origin, not those to another', async () => {
    const [ours, other] = await Promise.all([startMockServer({ port: 0 }), startMockServer({ port: 0 })]);
    servers.push(ours, other);
    const { request } = await import('node:http');
    const get = (server: MockServer) =>
      new Promise<void>((resolve, reject) =>
        request(`${server.url}/api/v1/credits`, (res) => res.resume().on('end', resolve))
          .on('error', reject)
          .end(),
      );
    expect(await clientRequestsDuring(ours.url, () => Promise.all([get(ours), get(other), get(other)]))).toBe(
      1,
    );
  });
});
