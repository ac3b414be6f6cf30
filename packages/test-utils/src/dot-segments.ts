// PATH spellings that common servers resolve as `.` or `..` though the WHATWG URL parser does
// not (an attack trial's): Tomcat/Spring path parameters, IIS's %u, overlong UTF-8, a NUL,
// fullwidth dots under NFKC, and a dot percent-encoded ten times over. The SDK's path check and
// the CLI's `api` refuse each; their tests share this list.
export const SERVER_RESOLVED_DOT_SEGMENTS = [
  '/api/..;/x',
  '/api/%2e%2e;/x',
  '/api/%u002e%u002e/x',
  '/api/%c0%ae%c0%ae/x',
  '/api/..%00/x',
  '/api/．．/x',
  `/api/${'%2e'.replace('%', `%${'25'.repeat(9)}`)}%2e/x`,
] as const;
