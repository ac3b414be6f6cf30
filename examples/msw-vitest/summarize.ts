// "Your" application code: what a customer writes on top of the SDK.
import type { ProfileArticles } from '@profile-articles/sdk';

export async function summarize(client: ProfileArticles, profileId: string): Promise<string> {
  const article = await client.articles.generateAndWait(profileId);
  return `${article.title} (${article.sources.length} sources)`;
}
