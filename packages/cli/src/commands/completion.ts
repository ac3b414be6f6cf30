// Shell completion scripts. Each is a thin shim that asks `profile-articles __complete` what
// fits (complete.ts), so the three shells offer the same words and never go stale.

import { CliError } from '../errors/errors.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Context } from '../settings/context.js';

const SCRIPTS: Record<string, string> = {
  bash: `# profile-articles bash completion: eval "$(profile-articles completion bash)"
_profile_articles() {
  # COMP_WORDS splits at : and = as well (every URL holds a :), so split the line up to the
  # cursor at blanks instead; a blank at the end asks about a new, empty word.
  local line="\${COMP_LINE:0:COMP_POINT}" words
  IFS=$' \\t' read -r -a words <<< "$line"
  [[ "$line" == *[[:blank:]] ]] && words+=("")
  local IFS=$'\\n'
  COMPREPLY=( $(profile-articles __complete "\${words[@]:1}" 2>/dev/null) )
}
complete -o default -F _profile_articles profile-articles
`,
  zsh: `#compdef profile-articles
# profile-articles zsh completion: profile-articles completion zsh > "\${fpath[1]}/_profile-articles"
# (or: source <(profile-articles completion zsh) after compinit)
_profile_articles() {
  # Each line is a word, then a tab and its description when it has one: shown as "word  -- …".
  local -a lines offered shown
  local line word
  lines=("\${(@f)$(profile-articles __complete-described "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  for line in "\${(@)lines:#}"; do
    word="\${line%%$'\\t'*}"
    offered+=("$word")
    if [[ "$line" == *$'\\t'* ]]; then shown+=("$word  -- \${line#*$'\\t'}"); else shown+=("$word"); fi
  done
  compadd -l -d shown -- "\${(@)offered}"
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _profile_articles "$@"
else
  compdef _profile_articles profile-articles
fi
`,
  fish: `# profile-articles fish completion: profile-articles completion fish | source
# Each answer line is a word, then a tab and its description, which fish shows beside it.
complete -c profile-articles -f -a '(profile-articles __complete-described (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`,
};

export async function completionCommand(ctx: Context, shell: string): Promise<void> {
  const script = SCRIPTS[shell];
  if (!script) throw new CliError(`Unknown shell "${shell}": use bash, zsh or fish.`, ExitCode.Usage);
  const { cloneFunction } = await import('../shell/invocation.js');
  ctx.io.stdout.write(`${cloneFunction(ctx.io.env, shell)}${script}`);
}
