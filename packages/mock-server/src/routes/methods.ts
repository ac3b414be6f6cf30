import { type Failure, fail } from '../operations/outcome.js';

// Which methods a path takes, read from the routes the app has registered (the API's come
// from the contract table), so a wrong method answers 405 rather than 404 with no second list.
interface RegisteredRoute {
  method: string;
  path: string;
}

/** `/a/:id` as a pattern of whole segments; wildcard (middleware) routes give none. */
function pattern(path: string): RegExp | undefined {
  if (path.includes('*')) return undefined;
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The `Allow` header's value for `pathname`, or undefined when no route has that path. */
function allowedMethods(routes: readonly RegisteredRoute[], pathname: string): string | undefined {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method !== 'ALL' && pattern(route.path)?.test(pathname)) methods.add(route.method);
  }
  return methods.size ? [...methods].join(', ') : undefined;
}

/** 405 with `Allow` for a known path, 404 for any other. */
export function wrongMethod(
  routes: readonly RegisteredRoute[],
  method: string,
  pathname: string,
): Failure<404 | 405> {
  const allow = allowedMethods(routes, pathname);
  return allow ? fail(405, `Method ${method} not allowed`, { allow }) : fail(404, 'Not found');
}
