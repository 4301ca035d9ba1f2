// createHostOriginCheck's rules one by one, as a pure function (no server): the default port of a Host without one,
// allow-list entries with and without a port, absolute-form targets, same-origin by name and port, allowed origins in
// any spelling of the same origin, Sec-Fetch-Site without Origin, and how a refused Host is shown.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  createHostOriginCheck,
  defaultHostNames,
  type HostOriginPolicy,
  normalizeOrigin,
  parseAuthority,
} from '../../src/security/host-origin.js';

const check = (policy: Partial<HostOriginPolicy> = {}) =>
  createHostOriginCheck({ bindHost: '127.0.0.1', allowedHosts: [], allowedOrigins: [], port: () => 1234, ...policy });

describe('the Host of a request', () => {
  it('without a port is on port 80', () => {
    expect(check({ port: () => 80 })({ host: 'localhost' }, '/')).toBeUndefined();
    expect(check({ port: () => 80 })({ host: 'localhost:0080' }, '/')).toBeUndefined();
    expect(check()({ host: 'localhost' }, '/')?.status).toBe(403);
    expect(check()({ host: 'localhost:1234' }, '/')).toBeUndefined();
    expect(check()({ host: 'localhost:1235' }, '/')?.status).toBe(403);
  });

  it('matches an allow-list entry by name on any port, or by name and port', () => {
    const allowing = check({ allowedHosts: ['Any.Example', ' pinned.example:8080 ', 'bad/entry', '*.'] });
    expect(allowing({ host: 'any.example:9' }, '/')).toBeUndefined();
    expect(allowing({ host: 'any.example' }, '/')).toBeUndefined();
    expect(allowing({ host: 'pinned.example:8080' }, '/')).toBeUndefined();
    expect(allowing({ host: 'pinned.example:8081' }, '/')?.status).toBe(403);
    expect(allowing({ host: 'pinned.example' }, '/')?.status).toBe(403);
    expect(allowing({ host: 'other.example:8080' }, '/')?.status).toBe(403);
  });

  it('is refused when missing or malformed, and shown (cut at 100 characters) when not allowed', () => {
    expect(check()({}, '/')?.detail).toBe('Forbidden: missing or malformed Host header');
    expect(check()({ host: 'user@localhost:1234' }, '/')?.detail).toMatch(/malformed/);
    expect(check()({ host: '' }, '/')?.detail).toMatch(/malformed/);
    expect(check()({ host: 'a.example' }, '/')?.detail).toBe(
      'Forbidden: Host "a.example" is not allowed (allow it with --allowed-host)',
    );
    const exactly = `${'h'.repeat(96)}.com`;
    expect(check()({ host: exactly }, '/')?.detail).toContain(`"${exactly}"`);
    const long = `${'h'.repeat(97)}.com`;
    expect(check()({ host: long }, '/')?.detail).toContain(`"${long.slice(0, 100)}…"`);
  });

  it('of an absolute-form target must be allowed too; `*` and origin-form targets have none', () => {
    const judge = check();
    const host = { host: 'localhost:1234' };
    expect(judge(host, 'http://localhost:1234/api')).toBeUndefined();
    expect(judge(host, 'http://127.0.0.1:1234')).toBeUndefined();
    expect(judge(host, 'http://evil.example:1234/api')?.detail).toBe(
      'Forbidden: the request target names a host that is not allowed',
    );
    expect(judge(host, 'http://localhost:1235/api')?.status).toBe(403);
    expect(judge(host, 'localhost:1234')?.status).toBe(403);
    expect(judge(host, '*')).toBeUndefined();
    expect(judge(host, '/api/')).toBeUndefined();
    expect(judge(host, undefined)).toBeUndefined();
  });
});

describe('the Origin of a request', () => {
  const host = 'localhost:1234';

  it('is same-origin when its host and port are the request’s Host', () => {
    const judge = check();
    expect(judge({ host, origin: 'http://localhost:1234' }, '/')).toBeUndefined();
    expect(judge({ host, origin: 'http://LOCALHOST:1234/' }, '/')).toBeUndefined();
    expect(judge({ host, origin: 'http://localhost:1235' }, '/')?.status).toBe(403);
    expect(judge({ host, origin: 'http://localhost' }, '/')?.status).toBe(403);
    expect(judge({ host, origin: 'http://127.0.0.1:1234' }, '/')?.status).toBe(403);
    expect(judge({ host, origin: 'null' }, '/')?.detail).toBe(
      'Forbidden: cross-origin request from Origin "null" refused (allow it with --allowed-origin)',
    );
  });

  it('matches the allowed origins in any spelling of the same origin, and nothing else', () => {
    const judge = check({ allowedOrigins: ['https://App.Example:443/', ' http://tools.example:8080 '] });
    expect(judge({ host, origin: 'https://app.example' }, '/')).toBeUndefined();
    expect(judge({ host, origin: 'http://tools.example:8080' }, '/')).toBeUndefined();
    expect(judge({ host, origin: 'http://app.example' }, '/')?.status).toBe(403);
    expect(judge({ host, origin: 'https://tools.example:8080' }, '/')?.status).toBe(403);
    expect(normalizeOrigin('https://App.Example:443/')).toBe('https://app.example');
    expect(normalizeOrigin('https://app.example/path')).toBeUndefined();
    expect(normalizeOrigin('null')).toBeUndefined();
  });

  it('when absent, a browser’s cross-site or same-site fetch is refused, unless any origin is allowed', () => {
    const judge = check();
    expect(judge({ host, 'sec-fetch-site': 'cross-site' }, '/')?.status).toBe(403);
    expect(judge({ host, 'sec-fetch-site': 'same-site' }, '/')?.status).toBe(403);
    expect(judge({ host, 'sec-fetch-site': 'same-origin' }, '/')).toBeUndefined();
    expect(judge({ host, 'sec-fetch-site': 'none' }, '/')).toBeUndefined();
    expect(judge({ host }, '/')).toBeUndefined();
    const open = check({ allowedOrigins: ['*'] });
    expect(open({ host, 'sec-fetch-site': 'cross-site' }, '/')).toBeUndefined();
    expect(open({ host, origin: 'http://elsewhere.example' }, '/')).toBeUndefined();
  });

  it('with any Host allowed, is still judged against the Host sent', () => {
    const judge = check({ allowedHosts: ['*'] });
    expect(judge({ host: 'name.example:5', origin: 'http://name.example:5' }, '/')).toBeUndefined();
    expect(judge({ host: 'name.example:5', origin: 'http://other.example:5' }, '/')?.status).toBe(403);
    expect(judge({ origin: 'http://name.example:5' }, '/')?.status).toBe(403);
    expect(judge({}, 'http://anything.example/')).toBeUndefined();
  });
});

describe('names and authorities', () => {
  it('parses name[:port] only, lowercased, without a trailing dot, the port as a number', () => {
    expect(parseAuthority('Example.COM.:08080')).toEqual({ name: 'example.com', port: '8080' });
    expect(parseAuthority('[::1]:80')).toEqual({ name: '[::1]', port: '80' });
    expect(parseAuthority('example.com')).toEqual({ name: 'example.com', port: '' });
    for (const bad of ['', 'a b', 'a/b', 'a\\b', 'a?b', 'a#b', 'u@a', ':80', '[::1']) {
      expect(parseAuthority(bad), bad).toBeUndefined();
    }
  });

  it('answers to the loopback names, an IPv6 bind address in brackets, and for a wildcard the machine’s name', () => {
    expect(defaultHostNames('10.1.2.3')).toEqual(['localhost', '127.0.0.1', '[::1]', '10.1.2.3']);
    expect(defaultHostNames('fe80::1')).toContain('[fe80::1]');
    expect(defaultHostNames('[fe80::2]')).toContain('[fe80::2]');
    for (const wildcard of ['0.0.0.0', '::', '[::]', '']) {
      const names = defaultHostNames(wildcard);
      expect(names, wildcard).toContain(hostname().toLowerCase());
      expect(names, wildcard).toContain('127.0.0.1');
    }
    expect(defaultHostNames('0.0.0.1')).not.toContain(hostname().toLowerCase());
    // A bind address that is no host name adds nothing (and breaks nothing).
    expect(defaultHostNames('not a host')).toEqual(['localhost', '127.0.0.1', '[::1]']);
  });
});
