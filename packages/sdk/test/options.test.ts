import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError, ProfileArticles, ProfileArticlesError } from '../src/index.js';

afterEach(() => vi.unstubAllEnvs());

describe('client options', () => {
  it('reads the key and origin from the environment', () => {
    vi.stubEnv('PROFILE_ARTICLES_API_KEY', 'env-key-0');
    vi.stubEnv('PROFILE_ARTICLES_BASE_URL', 'https://api.example.com/api/v1/');
    const client = new ProfileArticles();
    expect(client.baseUrl).toBe('https://api.example.com');
  });

  it('throws a clear error at construction when the key or origin is missing', () => {
    vi.stubEnv('PROFILE_ARTICLES_API_KEY', '');
    vi.stubEnv('PROFILE_ARTICLES_BASE_URL', '');
    expect(() => new ProfileArticles({ baseUrl: 'http://x' })).toThrow(/PROFILE_ARTICLES_API_KEY/);
    expect(() => new ProfileArticles({ apiKey: 'test-key' })).toThrow(/PROFILE_ARTICLES_BASE_URL/);
    expect(() => new ProfileArticles({ apiKey: 'test-key', baseUrl: 'not a url' })).toThrow(
      ProfileArticlesError,
    );
    expect(() => new ProfileArticles({ apiKey: 'test-key', baseUrl: 'http://x', maxRetries: -1 })).toThrow(
      /maxRetries/,
    );
  });

  it('an origin without its scheme says so and suggests the http:// URL, as `localhost:4010` is read as a scheme', () => {
    const make = (baseUrl: string) => () => new ProfileArticles({ apiKey: 'test-key', baseUrl });
    expect(make('localhost:4010')).toThrow(
      new InvalidArgumentError(
        'baseUrl has no scheme: "localhost:4010" (did you mean "http://localhost:4010"?)',
      ),
    );
    expect(make('127.0.0.1:4010')).toThrow(
      new InvalidArgumentError(
        'baseUrl has no scheme: "127.0.0.1:4010" (did you mean "http://127.0.0.1:4010"?)',
      ),
    );
    expect(make('api.example.com')).toThrow(
      new InvalidArgumentError(
        'baseUrl has no scheme: "api.example.com" (did you mean "https://api.example.com"?)',
      ),
    );
    // Never echoed when it may hold a password.
    expect(make('me:s3cret@localhost:4010')).toThrow(
      new InvalidArgumentError('baseUrl has no scheme: begin it with http:// or https://'),
    );
    expect(make('ftp://example.com')).toThrow(
      new InvalidArgumentError('baseUrl must be http or https, got "ftp:"'),
    );
  });

  it('rejects a bad profile id or job id before any request, by the contract table', async () => {
    const client = new ProfileArticles({ apiKey: 'test-key', baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
    await expect(client.articles.read('')).rejects.toThrow('profile_id must be at least 1 character');
    await expect(client.articles.generate('x'.repeat(201))).rejects.toThrow(
      'profile_id must be at most 200 characters, got "xxx',
    );
    await expect(client.articles.update('\u{1F600}'.repeat(201))).rejects.toThrow(
      'profile_id must be at most 200 characters',
    );
    await expect(client.jobs.get('not-a-uuid')).rejects.toThrow('job_id must be a guid');
    // `positive()` is an exclusive bound: 0 is refused, and the message must not say it is allowed.
    await expect(client.credits.checkout(0)).rejects.toThrow('credits must be above 0, got 0');
    await expect(client.credits.checkout(2.5)).rejects.toThrow('credits must be a whole number, got 2.5');
  });
});
