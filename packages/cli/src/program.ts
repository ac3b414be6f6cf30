// The command tree. Each action imports its command module only when it runs, so --help
// and argument errors load neither the SDK, zod nor ora; nor the Context, which only a
// running command needs.
import { flagSpelling, MOCK_FLAGS } from '@profile-articles/mock-server/flags';
import { Command, Option } from 'commander';
import { version } from '../package.json';
import { ExitCode } from './errors/exit-codes.js';
import type { Context, GlobalOptions } from './settings/context.js';
import { GUIDE_TOPICS, isGuideTopic } from './shell/guide-topics.js';
import { nearest } from './shell/nearest.js';
import type { Io } from './terminal/io.js';
import { errorLine } from './terminal/output.js';

type Action = (ctx: Context) => Promise<void>;

const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/** The command as a person typed it: `generate`, or `config set` for a subcommand. */
function commandName(cmd: Command): string {
  const parent = cmd.parent;
  return parent?.parent ? `${parent.name()} ${cmd.name()}` : cmd.name();
}

export function buildProgram(io: Io, onContext: (ctx: Context) => void): Command {
  const program = new Command('profile-articles');
  const json = () => {
    const { json, jq } = program.opts<GlobalOptions>();
    // A person at a terminal who typed --jq reads the one-line error (output.ts does the same).
    return json === true || (jq !== undefined && io.stderr.isTTY !== true);
  };

  const run = async (cmd: Command, action: Action) => {
    const { Context } = await import('./settings/context.js');
    const ctx = new Context(io, cmd.optsWithGlobals<GlobalOptions>(), commandName(cmd), cmd.opts(), cmd.args);
    onContext(ctx);
    return action(ctx);
  };

  program
    .description('Read, generate and update profile articles from the Profile Article Service')
    .version(version, '-v, --version')
    .addOption(
      new Option('--api-key <key>', 'API key (prefer `login`: a key here lands in shell history)').hideHelp(),
    )
    .option('--base-url <url>', 'API origin (env PROFILE_ARTICLES_BASE_URL)')
    .option(
      '--profile <name>',
      'the stored profile (key and origin) to use (env PROFILE_ARTICLES_PROFILE; default "default")',
    )
    .option(
      '--json',
      'print exactly one JSON value on stdout, in the API’s own shapes; errors as JSON on stderr',
    )
    .option('--jq <expression>', 'filter the JSON output with jq’s language, as gh does (implies --json)')
    .option(
      '--poll-interval <seconds>',
      'seconds between job polls (env PROFILE_ARTICLES_POLL_INTERVAL; default 10; 1 on a loopback origin)',
    )
    .option('--verbose', 'one line per HTTP attempt on stderr (never the key)')
    .option('--no-pager', 'print long articles straight to the terminal')
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError()
    .exitOverride()
    .helpCommand(false)
    .addHelpText(
      'after',
      examples(
        'profile-articles mock                       # a local mock server, in another terminal',
        'profile-articles login --base-url http://127.0.0.1:4010',
        'profile-articles generate ada-lovelace',
        'profile-articles read ada-lovelace --json | jq .article.title',
      ),
    )
    .addHelpText('after', guideList());

  program
    .command('read')
    .description('show the current article of a profile (1 credit)')
    .argument('<profile_id>', 'the profile slug')
    .option('--raw', 'print the article’s Markdown alone, unrendered')
    .option('-o, --output <file>', 'write the article’s Markdown to a file (not replacing one)')
    .option('--force', 'with -o: replace an existing file')
    .addHelpText(
      'after',
      examples(
        'profile-articles read ada-lovelace',
        'profile-articles read ada-lovelace --json',
        'profile-articles read ada-lovelace --raw | wc -w',
        'profile-articles read ada-lovelace -o ada-lovelace.md',
      ),
    )
    .action((profileId: string, opts, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/read.js')).readCommand(ctx, profileId, opts)),
    );

  for (const kind of ['generate', 'update'] as const) {
    program
      .command(kind)
      .description(
        kind === 'generate'
          ? 'generate an article (100 credits) and wait for it; an existing one is read (1 credit)'
          : 'refresh an existing article with a new research run (100 credits) and wait for it',
      )
      .argument('<profile_id>', 'the profile slug')
      .option('--no-wait', 'print the started job and return')
      .option('--idempotency-key <key>', 'reuse a key to retry safely without paying twice')
      .option('--timeout <seconds>', 'stop waiting after this long (the job goes on)')
      .addHelpText(
        'after',
        examples(
          `profile-articles ${kind} ada-lovelace`,
          `profile-articles ${kind} ada-lovelace --no-wait --json`,
          `profile-articles ${kind} ada-lovelace --idempotency-key KEY   # after a lost answer: no second charge`,
        ),
      )
      .action((profileId: string, opts, cmd: Command) =>
        run(cmd, async (ctx) => {
          const commands = await import('./commands/generate.js');
          const command = kind === 'generate' ? commands.generateCommand : commands.updateCommand;
          await command(ctx, profileId, opts);
        }),
      );
  }

  program
    .command('job')
    .description('show a job (free); --wait polls it to its end')
    .argument('<job_id>', 'the job id')
    .option('--wait', 'wait until the job has ended')
    .addHelpText('after', examples('profile-articles job JOB_ID', 'profile-articles job JOB_ID --wait'))
    .action((jobId: string, opts, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/job.js')).jobCommand(ctx, jobId, opts)),
    );

  program
    .command('credits')
    .description('show the balance and the account’s terms (free)')
    .addHelpText(
      'after',
      examples('profile-articles credits', 'profile-articles credits --json | jq .credits'),
    )
    .action((_o, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/credits.js')).creditsCommand(ctx)),
    );

  program
    .command('status')
    .description('origin, key and where each came from, balance, rate limit, config file (free)')
    .addHelpText('after', examples('profile-articles status', 'profile-articles status --json'))
    .action((_o, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/status.js')).statusCommand(ctx)),
    );

  program
    .command('buy')
    .description('buy credits through a payment checkout')
    .argument('<credits>', 'how many credits')
    .option('--open', 'open the payment page in your browser')
    .option('--wait', 'wait until the credits arrive (polling the balance)')
    .option('--timeout <seconds>', 'with --wait: stop waiting after this long (exit 1)')
    .addHelpText(
      'after',
      examples('profile-articles buy 500', 'profile-articles buy 500 --open --wait --timeout 600'),
    )
    .action((credits: string, opts, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/buy.js')).buyCommand(ctx, credits, opts)),
    );

  program
    .command('login')
    .description(
      'store an API key (read from a hidden prompt, or stdin when piped) in the system keyring after checking it',
    )
    .option(
      '--insecure-storage',
      'keep the key in the settings file (mode 0600) instead of the system keyring',
    )
    .addHelpText(
      'after',
      `\n--base-url URL (a global option) sets the origin to log in to, and stores it with the key.\n--profile NAME stores them as that profile (default "default").\nWhere no system keyring answers, the key goes in the settings file, and login says so.\n${examples(
        'profile-articles login --base-url https://api.example.com',
        'echo "$KEY" | profile-articles login --base-url https://api.example.com',
        'profile-articles login --profile staging --base-url https://staging.example.com',
        'profile-articles login --insecure-storage   # a CI machine without a keyring',
      )}`,
    )
    .action((opts, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/login.js')).loginCommand(ctx, opts)),
    );

  program
    .command('logout')
    .description(
      'remove the stored API key of the profile in use, from the keyring or the file (it is not revoked)',
    )
    .addHelpText('after', examples('profile-articles logout', 'profile-articles logout --profile staging'))
    .action((_o, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/login.js')).logoutCommand(ctx)),
    );

  const config = program
    .command('config')
    .description(
      'read and change stored settings of a profile: api-key, base-url; list the profiles, choose the default',
    )
    .addHelpText(
      'after',
      examples(
        'profile-articles config set base-url https://api.example.com',
        'profile-articles config set base-url https://staging.example.com --profile staging',
        'profile-articles config list                 # every profile, keys masked',
        'profile-articles config use staging          # the default profile from now on',
        'profile-articles config set api-key          # asks with a hidden prompt',
        'profile-articles config get api-key          # masked',
        'profile-articles config path',
      ),
    );
  config
    .command('set')
    .description('store a setting; `config set api-key` without a value asks with a hidden prompt')
    .argument('<name>', 'api-key or base-url')
    .argument('[value]', 'the value (for api-key, better left out)')
    .action((name: string, value: string | undefined, _o, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/config.js')).configSetCommand(ctx, name, value)),
    );
  config
    .command('get')
    .description('the value in effect and where it came from (flag, environment or config)')
    .argument('<name>', 'api-key (shown masked) or base-url')
    .action((name: string, _o, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/config.js')).configGetCommand(ctx, name)),
    );
  config
    .command('unset')
    .description('remove a stored setting')
    .argument('<name>', 'api-key or base-url')
    .action((name: string, _o, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/config.js')).configUnsetCommand(ctx, name)),
    );
  config
    .command('list')
    .description('every stored profile, its key masked; * marks the one in use')
    .action((_o, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/config.js')).configListCommand(ctx)),
    );
  config
    .command('use')
    .description('make a stored profile the default for later commands (--profile still wins)')
    .argument('<name>', 'a stored profile (default undoes the choice)')
    .action((name: string, _o, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/config.js')).configUseCommand(ctx, name)),
    );
  config
    .command('path')
    .description('where the settings are stored')
    .action((_o, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/config.js')).configPathCommand(ctx)),
    );

  const mock = program.command('mock').description('run the mock server in the foreground');
  // The mock bin's own flags, declared once in the mock server (bundled into this start-up:
  // it imports nothing), so the two commands cannot drift.
  for (const flag of MOCK_FLAGS) {
    const option = new Option(flagSpelling(flag), flag.description);
    if (flag.multiple) option.argParser((value: string, values: string[] = []) => [...values, value]);
    mock.addOption(option);
  }
  mock
    .addHelpText(
      'after',
      examples('profile-articles mock', 'profile-articles mock --port 0 --config mock.json'),
    )
    .action((opts, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/mock.js')).mockCommand(ctx, opts)),
    );

  program
    .command('batch')
    .description(
      'generate, update or read a list of profiles: paced, within a budget, resumable (profile-articles help bulk)',
    )
    .argument('<operation>', 'generate, update or read')
    .option('--from <file>', 'profile ids, one per line (- for stdin)')
    .option('--state <file>', 'the crash-safe state file (default: named after the list, in this folder)')
    .option('--concurrency <n>', 'profiles at a time', '4')
    .option('--max-credits <n>', 'never spend more than this (reservations count until refunded)')
    .option('--partial', 'when the budget or balance cannot cover the worst case, go as far as they allow')
    .option('--retry-failed', 'run profiles that failed earlier again, with new idempotency keys')
    .option('--out <dir>', 'write each article as <name>.json and <name>.md')
    .option('-y, --yes', 'start without asking')
    .action((operation: string, opts, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/batch.js')).batchCommand(ctx, operation, opts)),
    );

  program
    .command('api')
    .description('send one request to the API as you spell it and print its JSON answer, as `gh api`')
    .argument('<method>', 'GET or POST')
    .argument('<path>', 'below /api/v1 (/credits), or from the root when it starts with /api/')
    .option(
      '-f, --field <key=value>',
      'a body field (a query parameter for GET); true, false, null and whole numbers are typed as JSON',
      (value: string, values: string[] = []) => [...values, value],
    )
    .option('--input <file>', 'the JSON body, from a file (- for stdin)')
    .option('--idempotency-key <key>', 'POST: reuse a key to retry safely without doing it twice')
    .option(
      '-H, --header <name:value>',
      'a header to send (repeatable); not authorization, idempotency-key, content-type or host',
      (value: string, values: string[] = []) => [...values, value],
    )
    .option('-i, --include', 'print the status line and the answer’s headers before its body')
    .addHelpText(
      'after',
      examples(
        'profile-articles api GET /credits',
        'profile-articles api GET /credits -i',
        "profile-articles api GET /credits -H 'X-Team: billing'",
        'profile-articles api GET /jobs/JOB_ID --jq .status',
        'profile-articles api POST /credits/checkout -f credits=500',
        'profile-articles api POST /articles -f profile_id=ada-lovelace   # generate (100 credits)',
        'profile-articles api POST /articles --input body.json',
      ),
    )
    .action((method: string, path: string, opts, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/api.js')).apiCommand(ctx, method, path, opts)),
    );

  program
    .command('completion')
    .description('print a shell completion script')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      examples(
        'eval "$(profile-articles completion bash)"',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion, printed for the user.
        'profile-articles completion zsh > "${fpath[1]}/_profile-articles"',
        'profile-articles completion fish | source',
      ),
    )
    .action((shell: string, _o, cmd: Command) =>
      run(cmd, async (ctx) => (await import('./commands/completion.js')).completionCommand(ctx, shell)),
    );

  program
    .command('help')
    .description('display help for a command, or a guide')
    .argument(
      '[command...]',
      `a command (help config set), or a guide: ${Object.keys(GUIDE_TOPICS).join(', ')}`,
    )
    .addHelpText('after', guideList())
    .action((names: string[], _o, helpCmd: Command) => {
      // A guide's name wins over the command of the same name (`help mock` is the guide, which
      // points to `mock --help`), as PRODUCT.md names the topics.
      const [topic] = names;
      if (names.length === 1 && topic && isGuideTopic(topic)) {
        const pager = helpCmd.optsWithGlobals<GlobalOptions>().pager !== false;
        return import('./commands/help.js').then((help) => help.helpTopicCommand(io, topic, pager));
      }
      let cmd = program;
      for (const name of names) {
        const sub = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!sub) {
          const near = nearest(name, [
            ...cmd.commands.map((c) => c.name()),
            ...(cmd === program ? Object.keys(GUIDE_TOPICS) : []),
          ]);
          // Commander's own wording, so `help nosuch` reads like `nosuch`.
          return cmd.error(`unknown command '${name}'${near ? `\n(Did you mean ${near}?)` : ''}`, {
            exitCode: ExitCode.Usage,
            code: 'commander.unknownCommand',
          });
        }
        cmd = sub;
      }
      cmd.help();
    });

  // Every command tells its own usage errors, so a hint can name that command's --help.
  const configure = (cmd: Command) => {
    cmd.configureOutput(usageOutput(io, json, cmd === program ? '' : commandName(cmd)));
    cmd.commands.forEach(configure);
  };
  configure(program);
  return program;
}

/** The guides, under the examples of `--help` and `help --help`. */
function guideList(): string {
  const names = Object.keys(GUIDE_TOPICS);
  const width = Math.max(...names.map((name) => name.length));
  const rows = Object.entries(GUIDE_TOPICS).map(([name, about]) => `  ${name.padEnd(width)}  ${about}`);
  return `\nGuides (profile-articles help <topic>):\n${rows.join('\n')}\n`;
}

/** Where commander writes: help on stdout, usage errors as one line and a hint (JSON under --json). */
function usageOutput(io: Io, json: () => boolean, command: string) {
  return {
    writeOut: (text: string) => io.stdout.write(text),
    writeErr: (text: string) => io.stderr.write(text),
    outputError: (text: string, write: (text: string) => void) => {
      const message = text.replace(/^error: /, '').trim();
      const hint =
        !command && message.startsWith('unknown command')
          ? 'Run `profile-articles --help` for the list of commands.'
          : `Run \`profile-articles${command ? ` ${command}` : ''} --help\` for usage.`;
      if (json()) {
        const fields = {
          status: null,
          request_id: null,
          detail: null,
          attempts: null,
          idempotency_key: null,
        };
        const oneLine = message.replace(/\s*\n\s*/g, ' ');
        return write(errorLine({ type: 'UsageError', message: oneLine, hint, ...fields }));
      }
      write(`Error: ${message}\n${hint}\n`);
    },
  };
}
