// pnpm bench: every benchmark in turn (after `pnpm build`). Not part of `pnpm test`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

let failed = 0;
for (const name of ['sdk-size', 'cli-startup', 'sdk-overhead', 'mock-server-rps']) {
  console.log(`\n# ${name}`);
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(`./${name}.mjs`, import.meta.url))], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
