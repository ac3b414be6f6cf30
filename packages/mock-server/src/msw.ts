// The msw adapter: the same service, answering inside the test process.
import { http } from 'msw';
import type { MockService } from './service.js';

export interface HandlerOptions {
  /** The origin the SDK is pointed at, such as `http://api.test`. */
  baseUrl: string;
}

export function createHandlers(service: MockService, options: HandlerOptions) {
  const origin = new URL(options.baseUrl).origin;
  // A predicate rather than a path pattern: msw's pattern matching decodes the path and
  // throws on bad percent-encoding, which the service itself answers with a 422.
  const matches = ({ request }: { request: Request }) => new URL(request.url).origin === origin;
  return [http.all(matches, ({ request }) => service.handle(request))];
}
