// One article per profile, shared by every account. An article is deterministic from its
// profile and version (article-content.ts), so the store keeps only a seed per version (id,
// version, times) and renders the full Article when asked: a job's snapshot is the seed of
// the version it published, never a copy. A small cache of rendered articles, counted apart,
// keeps repeated reads of the same version from rendering again.
import type { Article, Source } from '@profile-articles/sdk/schemas';
import { markUnchanging } from '../json-text.js';
import { writeArticle } from './article-content.js';

/**
 * What a test gave a seeded article (config `articles`, `POST /_mock/articles`,
 * `service.seedArticle`): each field given replaces the generated one; the rest are generated.
 */
export interface SeededText {
  readonly title?: string;
  readonly content?: string;
  readonly sources?: Source[];
  readonly infobox?: Record<string, unknown> | null;
}

/** What an article version is made from. Never changed once published. */
export interface ArticleSeed {
  readonly profileId: string;
  readonly articleId: string;
  readonly version: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Only on a seeded version: the text it was given. A later version is generated again. */
  readonly text?: SeededText;
}

export interface Articles {
  /** The current article, rendered. */
  get(profileId: string): Article | undefined;
  /** The current version's seed. */
  seed(profileId: string): ArticleSeed | undefined;
  /** Writes version 1, or the next version of an existing article; returns its seed. */
  publish(profileId: string, at: number): ArticleSeed;
  /** The Article a seed stands for: the same whenever asked. */
  render(seed: ArticleSeed): Article;
  readonly size: number;
  /** Every current version's seed, for --data's snapshot. */
  seeds(): IterableIterator<ArticleSeed>;
  /** Puts a saved seed back as its profile's current version. */
  load(seed: ArticleSeed): void;
  /** Version 1 of a profile that has no article, with the text given; undefined when it has one. */
  seedArticle(profileId: string, text: SeededText, at: number): ArticleSeed | undefined;
}

/** Rendered articles kept for repeated reads: bounded, so memory does not grow with the store. */
const RENDER_CACHE_SIZE = 256;

/**
 * `newId` names a profile's first version; it is told the profile (--data's ids are made from
 * it, so an article's id does not depend on the order jobs ended in).
 */
export function createArticles(newId: (profileId: string) => string): Articles {
  const store = new Map<string, ArticleSeed>();
  const rendered = new Map<ArticleSeed, Article>();

  function render(seed: ArticleSeed): Article {
    const cached = rendered.get(seed);
    if (cached) return cached;
    const article: Article = {
      article_id: seed.articleId,
      ...writeArticle(seed.profileId, seed.version),
      ...seed.text,
      current_version: seed.version,
      created_at: new Date(seed.createdAt).toISOString(),
      updated_at: new Date(seed.updatedAt).toISOString(),
    };
    // Insertion order is age: drop the oldest once full.
    if (rendered.size >= RENDER_CACHE_SIZE) rendered.delete(rendered.keys().next().value!);
    rendered.set(seed, article);
    // Every reader shares this object, so nobody changes it: its JSON can be kept.
    markUnchanging(article);
    return article;
  }

  return {
    get(profileId) {
      const seed = store.get(profileId);
      return seed && render(seed);
    },
    seed: (profileId) => store.get(profileId),
    get size() {
      return store.size;
    },
    render,
    seeds: () => store.values(),
    load: (seed) => void store.set(seed.profileId, seed),
    seedArticle(profileId, text, at) {
      if (store.has(profileId)) return undefined;
      const seed: ArticleSeed = {
        profileId,
        articleId: newId(profileId),
        version: 1,
        createdAt: at,
        updatedAt: at,
        ...(Object.keys(text).length ? { text } : {}),
      };
      store.set(profileId, seed);
      return seed;
    },
    publish(profileId, at) {
      const previous = store.get(profileId);
      const seed: ArticleSeed = {
        profileId,
        articleId: previous?.articleId ?? newId(profileId),
        version: (previous?.version ?? 0) + 1,
        createdAt: previous?.createdAt ?? at,
        updatedAt: at,
      };
      store.set(profileId, seed);
      return seed;
    },
  };
}
