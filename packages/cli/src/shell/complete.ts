// What <TAB> offers, computed from the program's own commands and options. The shell scripts
// (commands/completion.ts) only hand the typed words to `profile-articles __complete`, so bash,
// zsh and fish agree, and global options may stand anywhere (`profile-articles --json gen<TAB>`).
import type { Command, Option } from 'commander';
import { GUIDE_TOPICS } from './guide-topics.js';

/** Words a positional argument accepts, where they are few and known. */
const POSITIONAL_CHOICES: Record<string, string[]> = {
  'config set': ['api-key', 'base-url'],
  'config get': ['api-key', 'base-url'],
  'config unset': ['api-key', 'base-url'],
  completion: ['bash', 'zsh', 'fish'],
  batch: ['generate', 'update', 'read'],
};

/**
 * The program's own options that change what a command does, offered after that command; any
 * other is offered only before a command (`--version` is the program's, `--no-pager` matters
 * only where an article or a guide is shown). Unlisted ones affect every command that calls the API.
 */
const GLOBAL_FOR: Record<string, (command: string) => boolean> = {
  '--version': () => false,
  '--no-pager': (command) => ['read', 'generate', 'update', 'help'].includes(command),
  '--poll-interval': (command) => ['generate', 'update', 'job', 'buy', 'batch'].includes(command),
};
const CALLS_NO_API = ['completion', 'help', 'mock'];
const globalAffects = (flag: string, command: string) =>
  GLOBAL_FOR[flag]?.(command) ?? !CALLS_NO_API.includes(command);

const visible = (cmd: Command) =>
  cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
const shownOptions = (cmd: Command) => cmd.options.filter((o) => !o.hidden);
const takesValue = (option: Option) => option.required || option.optional;

function flags(cmd: Command): string[] {
  return shownOptions(cmd).flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)));
}

/** `words`: what follows the program's name on the command line; the last one is being typed. */
export function complete(program: Command, words: string[]): string[] {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  const path: Command[] = [program];
  let positionals = 0;
  let awaitingValue: Option | undefined;
  for (const word of before) {
    if (awaitingValue) {
      awaitingValue = undefined;
      continue;
    }
    if (word.startsWith('-')) {
      const name = word.split('=')[0];
      const option = path.flatMap((c) => c.options).find((o) => o.long === name || o.short === name);
      if (option && takesValue(option) && !word.includes('=')) awaitingValue = option;
      continue;
    }
    const sub = visible(path.at(-1)!).find((c) => c.name() === word || c.aliases().includes(word));
    if (sub && positionals === 0) path.push(sub);
    else positionals++;
  }
  // After an option that takes a value, the value is the user's: offer nothing.
  if (awaitingValue) return [];
  const cmd = path.at(-1)!;
  let offered: string[];
  if (current.startsWith('-')) {
    const command = path[1]?.name();
    const own = path.slice(1).flatMap(flags);
    const global = flags(program).filter((flag) => command === undefined || globalAffects(flag, command));
    offered = [...new Set([...global, ...own, '--help'])];
  } else if (visible(cmd).length && positionals === 0) {
    offered = visible(cmd).map((c) => c.name());
  } else {
    const name = path
      .slice(1)
      .map((c) => c.name())
      .join(' ');
    // `help` takes a command or a guide.
    const choices =
      name === 'help'
        ? [...visible(program).map((c) => c.name()), ...Object.keys(GUIDE_TOPICS)]
        : POSITIONAL_CHOICES[name];
    offered = positionals === 0 ? [...new Set(choices ?? [])] : [];
  }
  return offered.filter((word) => word.startsWith(current));
}
