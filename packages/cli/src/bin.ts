#!/usr/bin/env node
import { run } from './main.js';

run(process.argv).then((code) => {
  // Leave at once: idle keep-alive sockets must not hold the terminal for seconds.
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
});
