#!/usr/bin/env node
import { run } from './main.js';

// A reader that stopped early (`… | head`) closed the pipe: that is no failure. Stop quietly,
// with the command's own code if it has finished, else 0, as gh does (docs/cli.md, exit codes).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

run(process.argv).then((code) => {
  // Leave at once: idle keep-alive sockets must not hold the terminal for seconds.
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
});
