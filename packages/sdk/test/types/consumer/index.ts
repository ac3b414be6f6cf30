// A customer's library that re-exports what the client gives it without writing the types
// down, compiled with declarations (types.test.ts, from a project outside this package). Its
// .d.ts must name every inferred type through `@profile-articles/sdk` itself: a type declared
// only in a shared chunk of dist/ cannot be named (TS2742, "likely not portable").
import { ProfileArticles } from '@profile-articles/sdk';

const client = new ProfileArticles({ apiKey: 'demo-key', baseUrl: 'http://api.test' });
export const articles = client.articles;
export const jobs = client.jobs;
export const credits = client.credits;
export const generate = (profileId: string) => client.articles.generate(profileId);
