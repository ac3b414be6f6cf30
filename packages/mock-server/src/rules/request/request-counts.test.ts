import { expect, it } from 'vitest';
import { FAULT_ROUTES } from './faults.js';
import { createRequestCounts, routeOf } from './request-counts.js';

it('names the route of every path of the interface, and none for what is not one', () => {
  for (const route of FAULT_ROUTES) {
    const [method, template] = route.split(' ') as [string, string];
    expect(routeOf(method, template.replace(/\{[^}]+\}/g, 'x-1'))).toBe(route);
  }
  expect(routeOf('POST', '/api/v1/articles/ada/update')).toBe('POST /api/v1/articles/{profile_id}/update');
  expect(routeOf('GET', '/api/v1/articles/ada/update')).toBeUndefined();
  for (const path of [
    '/api/v1/articles/',
    '/api/v1/articles//update',
    '/api/v1/credits/',
    '/api/v1',
    '/api/v10/credits',
    '/other',
  ])
    expect(routeOf('GET', path), path).toBeUndefined();
  expect(routeOf('DELETE', '/api/v1/credits')).toBeUndefined();
});

it('forgets a key 24 hours after its first request, and keeps the counts without it', () => {
  const counts = createRequestCounts(['acme']);
  const entry = (at: number, key: string | null) => ({
    at,
    method: 'POST',
    path: '/api/v1/articles',
    status: 202,
    accountId: 'acme',
    idempotencyKey: key,
    requestId: 'r',
  });
  counts.add(entry(0, 'k'));
  counts.add(entry(1000, 'k'));
  counts.add(entry(2000, null));
  expect(counts.count({ idempotencyKey: 'k' }, 2000)).toBe(2);
  expect(counts.keys).toBe(1);
  expect(counts.count({ idempotencyKey: 'k' }, 86_400_000)).toBe(0);
  expect(counts.keys).toBe(0);
  expect(counts.count({ account: 'acme', status: 202 }, 86_400_000)).toBe(3);
  expect(counts.count({ account: 'nobody' }, 0)).toBe(0);
});
