// The backend against the mock server over HTTP, as it runs in production: a real port for
// the backend, a real port for the service, fetch in between.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockServer, startMockServer } from '@profile-articles/mock-server';
import { ProfileArticles } from '@profile-articles/sdk';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createApp } from './app.js';

const API_KEY = 'backend-secret-key';
let mock: MockServer;
let backend: Server;
let origin: string;

beforeAll(async () => {
  mock = await startMockServer({
    port: 0,
    config: {
      accounts: [{ id: 'shop', apiKeys: [API_KEY], credits: 250 }],
      jobs: { queuedMs: 50, runningMs: 50 },
    },
  });
  const client = new ProfileArticles({ apiKey: API_KEY, baseUrl: mock.url, pollIntervalMs: 20 });
  backend = createApp(client).listen(0, '127.0.0.1');
  await new Promise((resolve) => backend.once('listening', resolve));
  origin = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
});
beforeEach(() => mock.service.reset());
afterAll(async () => {
  await new Promise((resolve) => backend.close(resolve));
  await mock.close();
});

async function get(profileId: string) {
  const response = await fetch(`${origin}/profiles/${profileId}/article`);
  const text = await response.text();
  expect(text).not.toContain(API_KEY); // the key never reaches the frontend
  return { status: response.status, body: JSON.parse(text), headers: response.headers };
}

it('generates and waits on the first request (100 credits), then reads (1 credit)', async () => {
  const first = await get('ada-lovelace');
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({
    generated: true,
    article: { title: 'Ada Lovelace', current_version: 1 },
  });
  expect(mock.service.balance('shop')).toBe(150);

  const second = await get('ada-lovelace');
  expect(second.body).toMatchObject({ generated: false, article: { title: 'Ada Lovelace' } });
  expect(mock.service.balance('shop')).toBe(149);
});

it('answers 404 for a profile the service does not know, free', async () => {
  expect(await get('notfound-someone')).toMatchObject({ status: 404, body: { error: 'No such profile' } });
  expect(mock.service.balance('shop')).toBe(250);
});

it('answers 502 when generation fails, and the credits come back', async () => {
  const { status, body } = await get('fail-someone');
  expect(status).toBe(502);
  expect(body.error).toMatch(/could not be generated/);
  expect(mock.service.balance('shop')).toBe(250);
});

it('hides an empty balance from the visitor behind a 503', async () => {
  await get('ada-lovelace');
  await get('grace-hopper'); // 50 credits left
  expect(await get('alan-turing')).toMatchObject({ status: 503, body: { error: 'Temporarily unavailable' } });
});
