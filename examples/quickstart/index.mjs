// The quick start from README.md, against a mock server started here so it runs anywhere:
// pnpm build && node examples/quickstart/index.mjs
import { startMockServer } from '@profile-articles/mock-server';
import { InsufficientCreditsError, ProfileArticles } from '@profile-articles/sdk';

const mock = await startMockServer({ port: 0, config: { jobs: { queuedMs: 200, runningMs: 300 } } });

const client = new ProfileArticles({ apiKey: 'demo-key', baseUrl: mock.url, pollIntervalMs: 100 });
try {
  const article = await client.articles.generateAndWait('ada-lovelace');
  console.log(`${article.title}: version ${article.current_version}, ${article.sources.length} sources`);
  const { credits } = await client.credits.balance();
  console.log(`${credits} credits left`);
} catch (error) {
  if (error instanceof InsufficientCreditsError)
    console.error('Buy credits first: client.credits.checkout(100)');
  else throw error;
} finally {
  await mock.close();
}
