// Whatever address a server sends, the opener gets a web page or nothing, and the refusal prints safely.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openableAddress } from './browser.js';
import { CliError } from './errors.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

function outcome(address: string): { opened: string } | { refused: CliError } {
  try {
    return { opened: openableAddress(address) };
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
    fc.string({ unit: 'binary', maxLength: 40 }),
  )
  .map(([scheme, host, rest]) => `${scheme}${host}/${rest}`);

describe('openableAddress', () => {
  it('hands on only https, or http on this machine, free of controls; refuses all else in one printable line', () => {
    fc.assert(
      fc.property(fc.oneof(address, fc.string({ unit: 'binary' })), (raw) => {
        const result = outcome(raw);
        if ('opened' in result) {
          const url = new URL(result.opened);
          expect(
            url.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname),
          ).toBe(true);
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
    expect(openableAddress('https://checkout.stripe.com/c/pay/cs_test_a1#fid')).toBe(
      'https://checkout.stripe.com/c/pay/cs_test_a1#fid',
    );
    expect(openableAddress('http://127.0.0.1:4010/_mock/checkout/s1')).toBe(
      'http://127.0.0.1:4010/_mock/checkout/s1',
    );
    expect(openableAddress('http://localhost:4010/pay')).toBe('http://localhost:4010/pay');
    expect(openableAddress('http://[::1]:4010/pay')).toBe('http://[::1]:4010/pay');
  });

  it('shows a refused address escaped, quoted and cut short', () => {
    expect(() => openableAddress('file:///etc/shadow')).toThrow(
      'Refused to open the payment page "file:///etc/shadow": only https addresses, or http on this computer, are opened.',
    );
    expect(() => openableAddress('https://x/\u001b]52;c;e30=\u0007"')).toThrow(
      'Refused to open the payment page "https://x/\\u001b]52;c;e30=\\u0007\\"": ',
    );
    expect(() => openableAddress(`javascript:${'a'.repeat(5000)}`)).toThrow(
      /"javascript:a{189}…": only https/,
    );
  });
});
