// Whether a URL's host is this machine: 127.0.0.0/8, [::1] or localhost. Only the forms the URL
// parser gives an address (it writes 127.1 and 0x7f000001 as 127.0.0.1): a name such as
// 127.0.0.1.evil.example is a name, which DNS may send anywhere.
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}
