import { describe, expect, it } from 'vitest';
import { createHostCheck, hostName, isLoopback } from './hosts.js';

describe('host names', () => {
  it('reads the name of a Host header, without its port', () => {
    expect(hostName('LocalHost:4010')).toBe('localhost');
    expect(hostName('[::1]:80')).toBe('[::1]');
    expect(hostName('127.0.0.1')).toBe('127.0.0.1');
    for (const bad of ['', 'a b', 'user@evil', 'evil/x', '[::1', 'a:b:c'])
      expect(hostName(bad), bad).toBeUndefined();
  });

  it('accepts the listening address, loopback names and allowed hosts only', () => {
    const check = createHostCheck('::1', ['Mock.Internal']);
    for (const name of ['localhost', '127.0.0.1', '[::1]', 'mock.internal'])
      expect(check(name), name).toBe(true);
    for (const name of ['evil.example', '0.0.0.0', 'localhost.evil.example'])
      expect(check(name), name).toBe(false);
    expect(createHostCheck('0.0.0.0', [])('0.0.0.0')).toBe(true);
  });

  it('tells loopback addresses from the others', () => {
    expect(['127.0.0.1', 'localhost', '::1', '127.1.2.3'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.5'].some(isLoopback)).toBe(false);
  });
});
