// Spellings of the same thing that the Host/Origin check must judge alike: a wildcard bind address written another
// way, a default port written out in Host, and allow-list entries the check could never match (refused at start-up
// rather than silently ignored).
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { buildServer, resolveServerConfig } from '../../src/index.js';
import { createHostOriginCheck, defaultHostNames, type HostOriginPolicy } from '../../src/security/host-origin.js';
import { removeDir, tempDir } from '../helpers.js';

const check = (policy: Partial<HostOriginPolicy> = {}) =>
  createHostOriginCheck({ bindHost: '127.0.0.1', allowedHosts: [], allowedOrigins: [], port: () => 1234, ...policy });

describe('a wildcard bind address', () => {
  it('answers to the machine’s name however the unspecified address is spelled', () => {
    const machine = hostname().toLowerCase();
    for (const wildcard of ['0', '0.0.0.0', '::', '[::]', '::0', '0:0:0:0:0:0:0:0', '[0:0::0]', '']) {
      expect({ wildcard, machine: defaultHostNames(wildcard).includes(machine) }).toEqual({ wildcard, machine: true });
    }
    const judge = check({ bindHost: '0:0:0:0:0:0:0:0' });
    expect(judge({ host: `${machine}:1234` }, '/')).toBeUndefined();
    expect(check({ bindHost: '0.0.0.1' })({ host: `${machine}:1234` }, '/')?.problem).toBe('host_not_allowed');
  });
});

describe('same-origin with the default port written out', () => {
  it('takes Host name:80 for an http page and name:443 for an https page, and no other port', () => {
    const judge = check({ port: () => 80, allowedHosts: ['app.example'] });
    const accepted = [
      { host: 'localhost:80', origin: 'http://localhost' },
      { host: 'localhost', origin: 'http://localhost:80' },
      { host: 'localhost:80', origin: 'http://localhost:80' },
      { host: 'app.example:443', origin: 'https://app.example' },
      { host: 'app.example', origin: 'https://app.example' },
      { host: 'app.example:8443', origin: 'https://app.example:8443' },
    ];
    const refused = [
      { host: 'localhost:80', origin: 'https://localhost' },
      { host: 'app.example:443', origin: 'http://app.example' },
      { host: 'app.example:80', origin: 'https://app.example' },
      { host: 'app.example:8443', origin: 'https://app.example' },
      { host: 'app.example', origin: 'https://app.example:8443' },
    ];
    const judged = (pairs: typeof accepted) =>
      pairs.map((headers) => ({ ...headers, problem: judge(headers, '/')?.problem }));
    expect(judged(accepted)).toEqual(accepted.map((headers) => ({ ...headers, problem: undefined })));
    expect(judged(refused)).toEqual(refused.map((headers) => ({ ...headers, problem: 'origin_not_allowed' })));
  });
});

describe('allow-list entries', () => {
  it('that no Host or Origin could match are refused by the configuration, naming the entry', () => {
    const hosts = ['https://proxy.example', 'proxy.example/', 'user@proxy.example', 'proxy example', '*.example'];
    for (const entry of hosts) {
      expect(() => resolveServerConfig({ X_SERVER_ALLOWED_HOSTS: `proxy.example,${entry}` }), entry).toThrow(
        /allowedHosts[\s\S]*not a host/,
      );
    }
    const origins = ['app.example', 'https://app.example/path', 'null', 'file://', 'https://user@app.example'];
    for (const entry of origins) {
      expect(() => resolveServerConfig({ X_SERVER_ALLOWED_ORIGINS: entry }), entry).toThrow(
        /allowedOrigins[\s\S]*not an origin/,
      );
    }
    const config = resolveServerConfig({
      X_SERVER_ALLOWED_HOSTS: '*,Proxy.Example.,proxy.example:8443,[::1]:9',
      X_SERVER_ALLOWED_ORIGINS: '*,https://App.Example:443/,http://127.0.0.1:8000',
    });
    expect(config.allowedHosts).toHaveLength(4);
    expect(config.allowedOrigins).toHaveLength(3);
  });

  it('are checked by buildServer too (flags and programmatic options do not pass through the environment)', async () => {
    const dataDir = await tempDir();
    try {
      await expect(
        buildServer({ port: 0, dataDir, logLevel: 'silent', allowedOrigins: ['app.example'] }),
      ).rejects.toThrow(/allowedOrigins/);
      await expect(
        buildServer({ port: 0, dataDir, logLevel: 'silent', allowedHosts: ['http://proxy.example'] }),
      ).rejects.toThrow(/allowedHosts/);
    } finally {
      await removeDir(dataDir);
    }
  });
});
