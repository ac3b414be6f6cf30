// Whatever address a server sends, the opener gets a web page or nothing, and the refusal prints safely.
import { anyCodePoints } from '@profile-articles/test-utils/arbitraries';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CliError } from '../errors/errors.js';
import { openableAddress } from './browser.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/** The origin the CLI talks to: the mock on this machine. */
const MOCK = 'http://127.0.0.1:4010';

function outcome(address: string, origin: string): { opened: string } | { refused: CliError } {
  try {
    return { opened: openableAddress(address, origin) };
  } catch (error) {
    if (error instanceof CliError) return { refused: error };
    throw error;
  }
}

// Addresses near the boundary: the schemes and hosts that matter, with odd characters anywhere.
const address = fc
  .tuple(
    fc.constantFrom('https://', 'http://', 'HTTPS://', 'file://', 'javascript:', 'data:', 'ftp://', ''),
    fc.constantFrom(
      'pay.example',
      '127.0.0.1',
      '127.1',
      'localhost',
      '[::1]',
      '127.0.0.1.evil.example',
      '10.0.0.1',
      '',
    ),
    anyCodePoints({ maxLength: 40 }),
  )
  .map(([scheme, host, rest]) => `${scheme}${host}/${rest}`);

// Origins the CLI may be pointed at: this machine, another one (an IPv4-mapped address, a name
// that only looks like loopback), or something that is no address.
const origin = fc.constantFrom(
  MOCK,
  'http://localhost:4010',
  'http://[::1]:4010',
  'https://api.example',
  'http://api.example',
  'http://[::ffff:127.0.0.1]:4010',
  'https://127.0.0.1.evil.example',
  'not an origin',
);
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

describe('openableAddress', () => {
  it('hands on only https, or http on this machine from a server on it, free of controls; refuses all else in one printable line', () => {
    fc.assert(
      fc.property(fc.oneof(address, anyCodePoints()), origin, (raw, from) => {
        const result = outcome(raw, from);
        if ('opened' in result) {
          const url = new URL(result.opened);
          const local = (host: string) => LOOPBACK.includes(host);
          expect(url.protocol === 'https:' || (local(url.hostname) && local(new URL(from).hostname))).toBe(
            true,
          );
          expect(result.opened).not.toMatch(CONTROL);
          expect(raw).not.toMatch(CONTROL);
        } else {
          expect(result.refused.message).toMatch(/^Refused to open the payment page "/);
          expect(result.refused.message).not.toMatch(CONTROL);
          expect(result.refused.message.length).toBeLessThan(1400);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('opens the pages a checkout really gives', () => {
    expect(openableAddress('https://checkout.stripe.com/c/pay/cs_test_a1#fid', 'https://api.example')).toBe(
      'https://checkout.stripe.com/c/pay/cs_test_a1#fid',
    );
    expect(openableAddress('http://127.0.0.1:4010/_mock/checkout/s1', MOCK)).toBe(
      'http://127.0.0.1:4010/_mock/checkout/s1',
    );
    expect(openableAddress('http://localhost:4010/pay', 'http://localhost:4010')).toBe(
      'http://localhost:4010/pay',
    );
    expect(openableAddress('http://[::1]:4010/pay', 'http://[::1]:4010')).toBe('http://[::1]:4010/pay');
  });

  it('shows a refused address escaped, quoted and cut short', () => {
    expect(() => openableAddress('file:///etc/shadow', MOCK)).toThrow(
      'Refused to open the payment page "file:///etc/shadow": only https addresses, or http on this computer, are opened.',
    );
    expect(() => openableAddress('https://x/\u001b]52;c;e30=\u0007"', MOCK)).toThrow(
      'Refused to open the payment page "https://x/\\u001b]52;c;e30=\\u0007\\"": ',
    );
    expect(() => openableAddress(`javascript:${'a'.repeat(5000)}`, MOCK)).toThrow(
      /"javascript:a{189}…": only https/,
    );
  });

  // Attack trial: a remote server named http://127.0.0.1:631/admin/?OP=add-printer (the local
  // printer service's admin page) and it was opened: plain http on this machine is the mock's
  // page only when the CLI talks to a server on this machine.
  it('refuses plain http on this machine when the server is on another one', () => {
    const page = 'http://127.0.0.1:631/admin/?OP=add-printer';
    for (const remote of ['https://api.example', 'http://[::ffff:127.0.0.1]:4010', 'nonsense']) {
      expect(() => openableAddress(page, remote)).toThrow(
        `Refused to open the payment page "${page}": a server on another computer named a page on this one; only https addresses are opened from it.`,
      );
    }
    expect(openableAddress(page, MOCK)).toBe(page);
  });
});
