import { describe, expect, it } from 'vitest';
import { isHostAllowed, parseHostPattern } from './host-allowlist.js';

function allowed(patterns: string[], host: string, port: number): boolean {
  return isHostAllowed(
    patterns.map((pattern) => {
      const parsed = parseHostPattern(pattern);
      if (parsed === undefined) throw new Error(`not a pattern: ${pattern}`);
      return parsed;
    }),
    host,
    port,
  );
}

describe('parseHostPattern', () => {
  it('reads names, wildcards, ports and bracketed IPv6', () => {
    expect(parseHostPattern('Example.COM')).toEqual({ host: 'example.com', wildcard: false });
    expect(parseHostPattern('*.example.com')).toEqual({ host: 'example.com', wildcard: true });
    expect(parseHostPattern('127.0.0.1:8080')).toEqual({ host: '127.0.0.1', wildcard: false, port: 8080 });
    expect(parseHostPattern('[::1]:443')).toEqual({ host: '::1', wildcard: false, port: 443 });
    expect(parseHostPattern('[::1]')).toEqual({ host: '::1', wildcard: false });
    expect(parseHostPattern('[2001:DB8::10]')).toEqual({ host: '2001:db8::10', wildcard: false });
  });

  it('takes every port a socket can connect to, 1 to 65535, and none past them', () => {
    expect(parseHostPattern('example.com:1')).toEqual({ host: 'example.com', wildcard: false, port: 1 });
    expect(parseHostPattern('example.com:65535')).toEqual({ host: 'example.com', wildcard: false, port: 65535 });
    expect(parseHostPattern('[::1]:65535')).toEqual({ host: '::1', wildcard: false, port: 65535 });
    expect(parseHostPattern('example.com:65536')).toBeUndefined();
    expect(parseHostPattern('[::1]:0')).toBeUndefined();
  });

  it('refuses what is not a host', () => {
    for (const bad of [
      '',
      'http://example.com',
      'example.com:0',
      'example.com:99999',
      'a b',
      '*',
      'ex*.com',
      '[zz]',
      'ab]',
      '[ab',
    ])
      expect(parseHostPattern(bad), bad).toBeUndefined();
  });
});

describe('isHostAllowed', () => {
  it('matches a name exactly, on every port when none is given', () => {
    expect(allowed(['example.com'], 'example.com', 443)).toBe(true);
    expect(allowed(['example.com'], 'EXAMPLE.com.', 80)).toBe(true);
    expect(allowed(['example.com'], 'api.example.com', 443)).toBe(false);
    expect(allowed(['example.com'], 'example.com.evil.net', 443)).toBe(false);
    expect(allowed(['example.com'], 'notexample.com', 443)).toBe(false);
  });

  it('matches subdomains only with a wildcard', () => {
    expect(allowed(['*.example.com'], 'api.example.com', 443)).toBe(true);
    expect(allowed(['*.example.com'], 'a.b.example.com', 443)).toBe(true);
    expect(allowed(['*.example.com'], 'example.com', 443)).toBe(false);
    expect(allowed(['*.example.com'], 'badexample.com', 443)).toBe(false);
  });

  it('never admits an IP address through a wildcard, only by an entry naming it', () => {
    expect(allowed(['*.0.1'], '127.0.0.1', 80)).toBe(false);
    expect(allowed(['*.1'], '169.254.169.254', 80)).toBe(false);
    expect(allowed(['*.0.1'], '[::ffff:127.0.0.1]', 80)).toBe(false);
    // A name ending the same way is still a name (the proxy refuses it if it resolves to this machine).
    expect(allowed(['*.0.1'], 'host.0.1', 80)).toBe(true);
    expect(allowed(['127.0.0.1'], '127.0.0.1', 80)).toBe(true);
  });

  it('holds a port to the one named', () => {
    expect(allowed(['127.0.0.1:8080'], '127.0.0.1', 8080)).toBe(true);
    expect(allowed(['127.0.0.1:8080'], '127.0.0.1', 8081)).toBe(false);
    expect(allowed(['[::1]:8080'], '[::1]', 8080)).toBe(true);
    expect(allowed(['[::1]:8080'], '::1', 8080)).toBe(true);
  });
});
