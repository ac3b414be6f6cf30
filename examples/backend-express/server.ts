// pnpm start: the backend on PORT (default 3000). The key comes from the environment
// (PROFILE_ARTICLES_API_KEY) and never leaves this process.
import { ProfileArticles } from '@profile-articles/sdk';
import { createApp } from './app.js';

const client = new ProfileArticles(); // PROFILE_ARTICLES_API_KEY, PROFILE_ARTICLES_BASE_URL
const port = Number(process.env.PORT ?? 3000);
createApp(client).listen(port, '127.0.0.1', () => {
  console.log(`backend listening on http://127.0.0.1:${port}: GET /profiles/:id/article`);
});
