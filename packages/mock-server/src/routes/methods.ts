import { fail, type Outcome } from '../outcome.js';

// Which methods each known path takes, so a wrong one answers 405 rather than 404.
const ROUTES: ReadonlyArray<[RegExp, string]> = [
  [/^\/api\/v1\/articles$/, 'POST'],
  [/^\/api\/v1\/articles\/[^/]+$/, 'GET'],
  [/^\/api\/v1\/articles\/[^/]+\/update$/, 'POST'],
  [/^\/api\/v1\/jobs\/[^/]+$/, 'GET'],
  [/^\/api\/v1\/credits$/, 'GET'],
  [/^\/api\/v1\/credits\/checkout$/, 'POST'],
  [/^\/_mock\/(reset|clock\/advance|checkout\/[^/]+\/complete)$/, 'POST'],
  [/^\/_mock\/(requests|ledger|stats)$/, 'GET'],
  [/^\/_mock\/faults$/, 'GET, PUT, DELETE'],
  [/^\/checkout\/[^/]+$/, 'GET'],
  [/^\/checkout\/[^/]+\/pay$/, 'POST'],
];

/** The path's methods (`Allow`), or undefined for a path the mock does not serve. */
export function allowedMethods(pathname: string): string | undefined {
  return ROUTES.find(([pattern]) => pattern.test(pathname))?.[1];
}

/** 405 with `Allow` for a known path, 404 for any other. */
export function wrongMethod(method: string, pathname: string): Outcome {
  const allow = allowedMethods(pathname);
  return allow ? fail(405, `Method ${method} not allowed`, { allow }) : fail(404, 'Not found');
}
