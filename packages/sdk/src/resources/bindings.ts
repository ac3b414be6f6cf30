// Which SDK method calls each contract-table entry, by the client's resource and method
// names. Each resource declares its own map and its methods call through it, so this is
// not a second list: scripts/contract-table.test.ts walks the table and fails on an entry
// no method is bound to.
import type { ProfileArticles } from '../client.js';
import type { EndpointName } from '../schemas/endpoints.js';
import { ARTICLE_ENDPOINTS } from './articles.js';
import { CREDIT_ENDPOINTS } from './credits.js';
import { JOB_ENDPOINTS } from './jobs.js';

type ResourceName = 'articles' | 'jobs' | 'credits';

export const RESOURCE_ENDPOINTS: {
  readonly [R in ResourceName]: Readonly<Partial<Record<keyof ProfileArticles[R], EndpointName>>>;
} = {
  articles: ARTICLE_ENDPOINTS,
  jobs: JOB_ENDPOINTS,
  credits: CREDIT_ENDPOINTS,
};
