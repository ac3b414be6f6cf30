// A config the mock cannot use, with every field at fault named.
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** zod issues as `path.to.field: message; …`, under `prefix` when given. */
export function describeIssues(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
  prefix: string[] = [],
): string {
  return issues
    .map((issue) => {
      const path = [...prefix, ...issue.path.map(String)];
      return `${path.length ? path.join('.') : '(root)'}: ${issue.message}`;
    })
    .join('; ');
}
