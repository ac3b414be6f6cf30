// pnpm demo: the tour a new user should see, through the CLI against the embedded
// mock server. Prints each command before running it; exits 0 when every step behaved.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { run } from '../packages/cli/dist/index.js';
import { payCheckoutPage, startMockServer } from '../packages/mock-server/dist/index.js';

const API_KEY = 'demo-key';

const bold = (text) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[1m${text}\u001b[22m` : text);

function say(text) {
  process.stdout.write(`\n${bold(`# ${text}`)}\n`);
}

/**
 * Runs the CLI in this process (`run(argv, io)`, the code the bin runs), with the terminal's
 * stderr (so a spinner shows on a TTY) and a copy of stdout. In-process, each step costs no
 * Node start-up (over a second each on a busy machine); the bin's own start is proven by the
 * CLI's start-up tests and `pnpm check:packages`.
 */
async function cli(args, env, onStdout) {
  process.stdout.write(`${bold('$ profile-articles')} ${args.join(' ')}\n`);
  let stdout = '';
  const io = {
    stdout: {
      isTTY: process.stdout.isTTY,
      columns: process.stdout.columns,
      write(chunk) {
        stdout += chunk;
        process.stdout.write(chunk);
        onStdout?.(stdout);
        return true;
      },
    },
    stderr: process.stderr,
    stdin: Readable.from([]),
    env,
  };
  return run(['node', 'profile-articles', ...args], io);
}

async function main() {
  const started = Date.now();
  // On a terminal the jobs take a couple of seconds, so a person sees the spinner go from
  // queued to running. Piped (CI, the demo's test) there is no spinner to watch: the same
  // steps, with jobs that finish at once.
  const watched = Boolean(process.stderr.isTTY);
  const server = await startMockServer({
    port: 0,
    config: {
      accounts: [{ id: 'demo', apiKeys: [API_KEY], credits: 1000 }],
      jobs: watched ? { queuedMs: 800, runningMs: 1500 } : { queuedMs: 50, runningMs: 100 },
    },
  });
  const env = {
    ...process.env,
    PROFILE_ARTICLES_API_KEY: API_KEY,
    PROFILE_ARTICLES_BASE_URL: server.url,
    PROFILE_ARTICLES_POLL_INTERVAL: watched ? '0.3' : '0.05',
    PROFILE_ARTICLES_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'profile-articles-demo-')),
  };
  process.stdout.write(`Mock server on ${server.url} (demo account: ${API_KEY}, 1000 credits)\n`);
  const failures = [];
  const step = async (text, args, expected = 0, onStdout) => {
    say(text);
    const code = await cli(args, env, onStdout);
    if (code !== 0) process.stdout.write(`(exit code ${code})\n`);
    if (code !== expected) failures.push(`${args.join(' ')}: exit ${code}, expected ${expected}`);
  };

  try {
    await step('Your balance and terms (free)', ['credits']);
    await step('Generate an article: 100 credits, the CLI waits for the job', ['generate', 'ada-lovelace']);
    await step('Read it again later: 1 credit', ['read', 'ada-lovelace']);
    await step('Refresh it with a new research run: 100 credits, version 2', ['update', 'ada-lovelace']);
    await step(
      'A failing job (test profile fail-…): exit code 3, and the 100 credits are refunded',
      ['generate', 'fail-demo-person'],
      3,
    );
    let paid = false;
    await step(
      'Buy credits: the CLI prints the payment page and waits; the demo presses Pay',
      ['buy', '500', '--wait'],
      0,
      (out) => {
        const url = /(http:\S+\/checkout\/cs_test_\w+)/.exec(out)?.[1];
        if (url && !paid) {
          paid = true;
          process.stdout.write(`(pressing Pay on ${url})\n`);
          payCheckoutPage(url).catch((error) => failures.push(`pay: ${error.message}`));
        }
      },
    );
    await step('The balance again: 1000 - 100 - 1 - 100 + 500', ['credits']);
  } finally {
    await server.close();
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failures.length) {
    process.stderr.write(`\nDemo failed:\n${failures.map((f) => `- ${f}`).join('\n')}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`\n${bold(`Demo finished in ${seconds} s.`)} Next: docs/cli.md and docs/sdk.md.\n`);
  }
}

main();
