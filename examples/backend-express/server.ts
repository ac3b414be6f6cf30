// pnpm start: the backend on PORT (default 3000). The key comes from the environment
// (PROFILE_ARTICLES_API_KEY) and never leaves this process.
import { ProfileArticles } from '@profile-articles/sdk';
import { createApp } from './app.js';

const client = new ProfileArticles(); // PROFILE_ARTICLES_API_KEY, PROFILE_ARTICLES_BASE_URL
const port = Number(process.env.PORT ?? 3000);
// The profiles this site has. Replace with your own authorisation: any slug a visitor may type
// here is one more generation (100 credits) an anonymous visitor can make you pay for.
const profiles = new Set(['ada-lovelace', 'grace-hopper', 'alan-turing']);
createApp(client, { canServe: (profileId) => profiles.has(profileId) }).listen(port, '127.0.0.1', () => {
  console.log(`backend listening on http://127.0.0.1:${port}: GET /profiles/:id/article`);
});
