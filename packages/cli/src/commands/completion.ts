// Shell completion scripts, built from the program's own commands and options.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

interface Spec {
  name: string;
  options: string[];
}

function specs(program: Command): { commands: Spec[]; globals: string[] } {
  const flags = (cmd: Command) =>
    cmd.options
      .filter((o) => !(o as { hidden?: boolean }).hidden)
      .map((o) => o.long ?? '')
      .filter(Boolean);
  return {
    commands: program.commands.map((cmd) => ({ name: cmd.name(), options: flags(cmd) })),
    globals: [...flags(program), '--help'],
  };
}

function bash(program: Command): string {
  const { commands, globals } = specs(program);
  const cases = commands.map((c) => `    ${c.name}) opts="${c.options.join(' ')}" ;;`).join('\n');
  return `# profile-articles bash completion: eval "$(profile-articles completion bash)"
_profile_articles() {
  local cur cmd opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  cmd="\${COMP_WORDS[1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${commands.map((c) => c.name).join(' ')} ${globals.join(' ')}" -- "$cur") )
    return
  fi
  case "$cmd" in
${cases}
    config) opts="set get unset path api-key base-url" ;;
    *) opts="" ;;
  esac
  COMPREPLY=( $(compgen -W "$opts ${globals.join(' ')}" -- "$cur") )
}
complete -F _profile_articles profile-articles
`;
}

function zsh(program: Command): string {
  const { commands, globals } = specs(program);
  const names = commands.map(
    (c) =>
      `'${c.name}:${(program.commands.find((x) => x.name() === c.name)?.description() ?? '').replaceAll("'", '')}'`,
  );
  const cases = commands
    .map(
      (c) =>
        `    ${c.name}) _values 'option' ${[...c.options, ...globals].map((o) => `'${o}'`).join(' ')} ;;`,
    )
    .join('\n');
  return `#compdef profile-articles
# profile-articles zsh completion: profile-articles completion zsh > "\${fpath[1]}/_profile-articles"
_profile_articles() {
  if (( CURRENT == 2 )); then
    _describe 'command' "(${names.join(' ')})"
    return
  fi
  case "$words[2]" in
${cases}
  esac
}
compdef _profile_articles profile-articles
`;
}

function fish(program: Command): string {
  const { commands, globals } = specs(program);
  const lines = [
    '# profile-articles fish completion: profile-articles completion fish | source',
    'complete -c profile-articles -f',
    ...commands.map(
      (c) =>
        `complete -c profile-articles -n '__fish_use_subcommand' -a ${c.name} -d '${(program.commands.find((x) => x.name() === c.name)?.description() ?? '').replaceAll("'", '')}'`,
    ),
    ...commands.flatMap((c) =>
      c.options.map(
        (o) =>
          `complete -c profile-articles -n '__fish_seen_subcommand_from ${c.name}' -l ${o.replace(/^--/, '')}`,
      ),
    ),
    ...globals.map((o) => `complete -c profile-articles -l ${o.replace(/^--/, '')}`),
  ];
  return `${lines.join('\n')}\n`;
}

export async function completionCommand(ctx: Context, shell: string, program: Command): Promise<void> {
  const scripts: Record<string, (p: Command) => string> = { bash, zsh, fish };
  const make = scripts[shell];
  if (!make) throw new CliError(`Unknown shell "${shell}": use bash, zsh or fish.`, ExitCode.Usage);
  ctx.io.stdout.write(make(program));
}
