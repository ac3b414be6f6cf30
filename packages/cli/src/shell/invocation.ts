// How the person started the CLI, for the commands it prints to copy: from a clone, `pnpm cli`
// (the root script, which sets npm_lifecycle_event) since no `profile-articles` is on PATH there;
// with the --profile it was given, so that a copied command acts on the same account (a name
// holds only [A-Za-z0-9._-], checked before any command runs).
export function invocation(env: Record<string, string | undefined>, profile?: string): string {
  const cli =
    env.npm_lifecycle_event === 'cli' && env.npm_package_name === 'profile-articles'
      ? 'pnpm cli'
      : 'profile-articles';
  return profile === undefined ? cli : `${cli} --profile ${profile}`;
}

/**
 * From a clone, a `profile-articles` shell function that runs this very bin, for the completion
 * scripts to call (they ask `profile-articles __complete`); empty after a normal install.
 */
export function cloneFunction(env: Record<string, string | undefined>, shell: string): string {
  if (invocation(env) === 'profile-articles' || !process.argv[1]) return '';
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const run = `${quote(process.execPath)} ${quote(process.argv[1])}`;
  const line =
    shell === 'fish'
      ? `function profile-articles; ${run.replaceAll("'\\''", "\\'")} $argv; end`
      : `profile-articles() { ${run} "$@"; }`;
  return `# From a clone (pnpm cli): profile-articles runs its built CLI in this shell.\n${line}\n`;
}
