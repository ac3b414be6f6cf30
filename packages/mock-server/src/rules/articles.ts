// One article per profile, shared by every account.
import type { Article } from '@profile-articles/sdk/schemas';
import { writeArticle } from './article-content.js';

export interface Articles {
  get(profileId: string): Article | undefined;
  /** Writes version 1, or the next version of an existing article; returns the new state. */
  publish(profileId: string, at: number): Article;
  readonly size: number;
}

export function createArticles(newId: () => string): Articles {
  const store = new Map<string, Article>();
  return {
    get: (profileId) => store.get(profileId),
    get size() {
      return store.size;
    },
    publish(profileId, at) {
      const previous = store.get(profileId);
      const version = (previous?.current_version ?? 0) + 1;
      const now = new Date(at).toISOString();
      const article: Article = {
        article_id: previous?.article_id ?? newId(),
        ...writeArticle(profileId, version),
        current_version: version,
        created_at: previous?.created_at ?? now,
        updated_at: now,
      };
      store.set(profileId, article);
      return article;
    },
  };
}
