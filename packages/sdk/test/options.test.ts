import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProfileArticles, ProfileArticlesError } from '../src/index.js';

afterEach(() => vi.unstubAllEnvs());

describe('client options', () => {
  it('reads the key and origin from the environment', () => {
    vi.stubEnv('PROFILE_ARTICLES_API_KEY', 'env-key');
    vi.stubEnv('PROFILE_ARTICLES_BASE_URL', 'https://api.example.com/api/v1/');
    const client = new ProfileArticles();
    expect(client.baseUrl).toBe('https://api.example.com');
  });

  it('throws a clear error at construction when the key or origin is missing', () => {
    vi.stubEnv('PROFILE_ARTICLES_API_KEY', '');
    vi.stubEnv('PROFILE_ARTICLES_BASE_URL', '');
    expect(() => new ProfileArticles({ baseUrl: 'http://x' })).toThrow(/PROFILE_ARTICLES_API_KEY/);
    expect(() => new ProfileArticles({ apiKey: 'k' })).toThrow(/PROFILE_ARTICLES_BASE_URL/);
    expect(() => new ProfileArticles({ apiKey: 'k', baseUrl: 'not a url' })).toThrow(ProfileArticlesError);
    expect(() => new ProfileArticles({ apiKey: 'k', baseUrl: 'http://x', maxRetries: -1 })).toThrow(
      /maxRetries/,
    );
  });

  it('rejects a bad profile id before any request', () => {
    const client = new ProfileArticles({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' });
    expect(() => client.articles.read('')).toThrow(/1 to 200/);
    expect(() => client.articles.generate('x'.repeat(201))).toThrow(/1 to 200/);
  });
});
