// node --import tsx main.ts RUN_ID < profiles.txt
// Reads PROFILE_ARTICLES_API_KEY and PROFILE_ARTICLES_BASE_URL. Rerun with the same RUN_ID to resume.
import { ProfileArticles } from '@profile-articles/sdk';
import { refreshProfiles } from './refresh.js';

const runId = process.argv[2];
if (!runId) {
  console.error('usage: main.ts RUN_ID < profiles.txt');
  process.exit(2);
}
let text = '';
for await (const chunk of process.stdin) text += chunk;
const ids = text
  .split(/\r?\n/)
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

// One client for the whole process: pacing is per client.
const client = new ProfileArticles({ pacing: 'auto' });
const results = await refreshProfiles(client, ids, {
  runId,
  onResult: (r) => console.log(r.error ? `failed    ${r.profileId}: ${r.error}` : `refreshed ${r.profileId}`),
});
process.exitCode = results.some((r) => r.error) ? 3 : 0;
