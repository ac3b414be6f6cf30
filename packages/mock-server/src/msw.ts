// The msw adapter: the same service, answering inside the test process.
import { http } from 'msw';
import type { MockService } from './service.js';

export interface HandlerOptions {
  /** The origin the SDK is pointed at, such as `http://api.test`. */
  baseUrl: string;
}

export function createHandlers(service: MockService, options: HandlerOptions) {
  const origin = new URL(options.baseUrl).origin;
  return [http.all(`${origin}/*`, ({ request }) => service.handle(request))];
}
