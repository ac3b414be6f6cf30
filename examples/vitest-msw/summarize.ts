// "Your" application code: what a customer writes on top of the SDK.
import type { AndWaitOptions, ProfileArticles } from '@profile-articles/sdk';

/** One line about a profile's article, generating it first when there is none. */
export async function summarize(
  client: ProfileArticles,
  profileId: string,
  options: AndWaitOptions = {},
): Promise<string> {
  const article = await client.articles.generateAndWait(profileId, options);
  return `${article.title} (${article.sources.length} sources, version ${article.current_version})`;
}
