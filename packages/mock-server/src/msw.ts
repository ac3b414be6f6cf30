// The msw adapter: the same service, answering inside the test process.
import { HttpResponse, http } from 'msw';
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
  return [
    http.all(matches, async ({ request }) => {
      const response = await service.handle(request);
      // A `reset` fault: msw's network error, as a dropped connection looks to fetch.
      return response.type === 'error' ? HttpResponse.error() : response;
    }),
  ];
}
