// Which methods each known path takes, so a wrong one answers 405 rather than 404.
const ROUTES: ReadonlyArray<[RegExp, string]> = [
  [/^\/api\/v1\/articles$/, 'POST'],
  [/^\/api\/v1\/articles\/[^/]+$/, 'GET'],
  [/^\/api\/v1\/articles\/[^/]+\/update$/, 'POST'],
  [/^\/api\/v1\/jobs\/[^/]+$/, 'GET'],
  [/^\/api\/v1\/credits$/, 'GET'],
  [/^\/api\/v1\/credits\/checkout$/, 'POST'],
  [/^\/_mock\/(reset|clock\/advance|checkout\/[^/]+\/complete)$/, 'POST'],
  [/^\/_mock\/requests$/, 'GET'],
];

export function allowedMethods(pathname: string): string | undefined {
  return ROUTES.find(([pattern]) => pattern.test(pathname))?.[1];
}
