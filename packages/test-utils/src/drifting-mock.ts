// A real mock on port 0 whose every answer passes through a Drift (lying-mock.ts) before it is
// sent: a server that is right in all but the lie a test is about. Also the lies the CLI's own
// boundary tests tell: a checkout page address no browser should be given.
import type { MockConfig, MockServer } from '@profile-articles/mock-server';
import { type Drift, rewriteBody } from './lying-mock.js';

export async function startDriftingMock(drift: Drift, config?: MockConfig): Promise<MockServer> {
  const { createMockService, startMockServer } = await import('@profile-articles/mock-server');
  const service = createMockService(config);
  return startMockServer({
    port: 0,
    service: {
      ...service,
      handle: async (request) => drift(request, await service.handle(request.clone()), service),
    },
  });
}

/** The checkout answers `url` as its payment page, whatever page the mock made. */
export const checkoutPage = (url: string): Drift =>
  rewriteBody('createCheckout', (body) => ({ ...body, url }));
