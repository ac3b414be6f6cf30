// A user's project compiled with `declaration: true` (public-types.test.ts): it exports what
// it infers from each package's public signatures without writing the types down, so its
// .d.ts must name every one of them through the packages' public entries (TS2883 otherwise).
import { run } from '@profile-articles/cli';
import { createMockService, startMockServer } from '@profile-articles/mock-server';
import { createHandlers } from '@profile-articles/mock-server/msw';
import { ProfileArticles } from '@profile-articles/sdk';

/** The last request `onRequest` heard, of the type the mock hands it (TS2883 when not exported). */
type Hear = NonNullable<NonNullable<Parameters<typeof startMockServer>[0]>['onRequest']>;
export const heard: Array<Parameters<Hear>[0]> = [];
export const last = () => heard[heard.length - 1];
export const service = createMockService();
export const state = service.state();
export const stats = service.stats();
export const ledger = service.ledger();
export const server = startMockServer({ port: 0 });
export const handlers = createHandlers(service, { baseUrl: 'http://api.test' });
export const client = new ProfileArticles({ apiKey: 'demo-key', baseUrl: 'http://api.test' });
export const generate = (profileId: string) => client.articles.generateAndWait(profileId);
export const options = client.credits;
export const cli = run;
