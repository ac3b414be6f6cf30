// Which host names the mock answers to. Any web page can point a DNS name of its own at
// 127.0.0.1 (DNS rebinding) and then call the mock as "same origin"; the Host it sends
// still names the attacker's domain. So a request is served only when its host name (any
// port) is the address the server listens on, a loopback name, or one the operator allowed.
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** IPv6 literals are written in brackets, as they appear in Host and in URL.hostname. */
function bracketed(host: string): string {
  const lower = host.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/** The host name of a `Host` header (lower case, no port), or undefined when it is malformed. */
export function hostName(authority: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@?#]+)(?::\d{0,5})?$/i.exec(authority);
  return match?.[1]?.toLowerCase();
}

/** Accepts a host name (as hostName() or URL.hostname give it) that the server may answer. */
export function createHostCheck(
  listenHost: string,
  allowHosts: readonly string[],
): (name: string) => boolean {
  const accepted = new Set([...LOOPBACK, bracketed(listenHost), ...allowHosts.map(bracketed)]);
  return (name) => accepted.has(name);
}

/** True for the addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const name = bracketed(host);
  return LOOPBACK.includes(name) || /^127\.\d+\.\d+\.\d+$/.test(name);
}
