// What <TAB> offers, computed from the program's own commands and options. The shell scripts
// (commands/completion.ts) only hand the typed words to `profile-articles __complete` (bash) or
// `__complete-described` (zsh and fish, which show each word's one-line description), so the
// shells agree, and global options may stand anywhere (`profile-articles --json gen<TAB>`).
import type { Command, Option } from 'commander';
import { GUIDE_TOPICS } from './guide-topics.js';

/** A word to offer, and what it is in one line (empty when it says nothing more than the word). */
export interface Offer {
  word: string;
  about: string;
}

/** The stored profiles, read only when a profile name is what fits (main.ts reads the file). */
export type ProfileLister = () => Promise<Offer[]>;

const SETTINGS: Offer[] = [
  { word: 'api-key', about: 'the API key (stored in the system keyring where one answers)' },
  { word: 'base-url', about: 'the API origin the profile’s key goes to' },
];

/** Words a positional argument accepts, where they are few and known. */
const POSITIONAL_CHOICES: Record<string, Offer[]> = {
  'config set': SETTINGS,
  'config get': SETTINGS,
  'config unset': SETTINGS,
  completion: ['bash', 'zsh', 'fish'].map((word) => ({ word, about: `the script for ${word}` })),
  batch: [
    { word: 'generate', about: 'generate each profile’s article (100 credits each)' },
    { word: 'update', about: 'refresh each profile’s article (100 credits each)' },
    { word: 'read', about: 'read each profile’s article (1 credit each)' },
  ],
};

/** Positional arguments that take a stored profile's name. */
const TAKES_PROFILE = new Set(['config use']);

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

/** The first line of a description: a shell shows one. */
const oneLine = (text: string) => text.split('\n')[0]?.trim() ?? '';

function flags(cmd: Command): Offer[] {
  return shownOptions(cmd).flatMap((o) =>
    [o.long, o.short]
      .filter((f): f is string => Boolean(f))
      .map((word) => ({ word, about: oneLine(o.description) })),
  );
}

/** Each word once, the first offer of it kept. */
const unique = (offers: Offer[]) => [...new Map(offers.map((o) => [o.word, o])).values()];

/**
 * `words`: what follows the program's name on the command line; the last one is being typed.
 * `profiles` lists the stored profiles, asked only where a profile's name fits.
 */
export async function complete(
  program: Command,
  words: string[],
  profiles: ProfileLister = async () => [],
): Promise<Offer[]> {
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
  // After an option that takes a value, the value is the user's (offer nothing), except a
  // profile's name, which the settings file knows.
  if (awaitingValue?.long === '--profile')
    return (await profiles()).filter((o) => o.word.startsWith(current));
  if (awaitingValue) return [];
  if (current.startsWith('--profile=')) {
    const typed = current.slice('--profile='.length);
    return (await profiles())
      .filter((o) => o.word.startsWith(typed))
      .map((o) => ({ ...o, word: `--profile=${o.word}` }));
  }
  const cmd = path.at(-1)!;
  let offered: Offer[];
  if (current.startsWith('-')) {
    const command = path[1]?.name();
    const own = path.slice(1).flatMap(flags);
    const global = flags(program).filter(
      (flag) => command === undefined || globalAffects(flag.word, command),
    );
    offered = unique([...global, ...own, { word: '--help', about: 'display help for the command' }]);
  } else if (visible(cmd).length && positionals === 0) {
    offered = visible(cmd).map((c) => ({ word: c.name(), about: oneLine(c.description()) }));
  } else {
    const name = path
      .slice(1)
      .map((c) => c.name())
      .join(' ');
    // `help` takes a command or a guide.
    const choices =
      name === 'help'
        ? [
            ...visible(program).map((c) => ({ word: c.name(), about: oneLine(c.description()) })),
            ...Object.entries(GUIDE_TOPICS).map(([word, about]) => ({ word, about: `guide: ${about}` })),
          ]
        : TAKES_PROFILE.has(name) && positionals === 0
          ? await profiles()
          : POSITIONAL_CHOICES[name];
    offered = positionals === 0 ? unique(choices ?? []) : [];
  }
  return offered.filter((offer) => offer.word.startsWith(current));
}
