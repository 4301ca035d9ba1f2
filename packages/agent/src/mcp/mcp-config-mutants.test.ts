// The edges of an MCP configuration as users write it: what is refused (and how the error names it), which transport
// a server gets when the config leaves it out, and what base_state.json keeps of a server (secrets never).
import { describe, expect, it } from 'vitest';
import { InvalidMcpConfigError } from './invalid-mcp-config-error.js';
import { effectiveMcpTransport, mcpConfigToJSON, parseMcpConfig } from './mcp-config.js';

describe('parseMcpConfig refuses', () => {
  it.each([
    ['an empty command', { a: { command: '' } }, /server 'a': command: /],
    ['an empty url', { a: { url: '' } }, /server 'a': url: /],
    ['a server with neither command nor url', { a: {} }, /server 'a': \(server\): remote MCP servers require 'url'/],
    ['an SSE server without a url', { a: { command: 'x', transport: 'sse' } }, /server 'a': .*require 'url'/],
    ['an HTTP server without a url', { a: { command: 'x', type: 'shttp' } }, /server 'a': .*require 'url'/],
    ['a server that is no object', { a: 'uvx mcp-server-fetch' }, /server 'a': \(server\): /],
    ['a server that is a list', { a: [{ command: 'x' }] }, /server 'a': \(server\): (?!remote)/],
    ['a server that is null', { a: null }, /server 'a': \(server\): /],
    ['an empty server name', { '': { command: 'x' } }, /server name '' must be 1-64 letters/],
    ['a server name with a space', { 'my server': { command: 'x' } }, /server name 'my server'/],
    ['a server name of 65 characters', { ['n'.repeat(65)]: { command: 'x' } }, /must be 1-64 letters/],
    ['mcpServers that is a list', { mcpServers: [{ command: 'x' }] }, /'mcpServers' must be an object of servers/],
    ['mcpServers that is a string', { mcpServers: 'servers' }, /'mcpServers' must be an object of servers/],
    ['a string', 'servers', /expected an object of servers/],
    ['a number', 5, /expected an object of servers/],
  ])('%s, with an InvalidMcpConfigError naming it', (_what, value, message) => {
    expect(() => parseMcpConfig(value)).toThrow(InvalidMcpConfigError);
    expect(() => parseMcpConfig(value)).toThrow(message);
  });
});

describe('parseMcpConfig accepts', () => {
  it('nothing (undefined, null, or mcpServers null) as no servers', () => {
    expect(parseMcpConfig(undefined)).toEqual({});
    expect(parseMcpConfig(null)).toEqual({});
    expect(parseMcpConfig({ mcpServers: null })).toEqual({});
  });

  it('servers enabled unless the config says otherwise, names of 64 characters, a command with a url', () => {
    const long = 'n'.repeat(64);
    const config = parseMcpConfig({
      [long]: { command: 'x' },
      off: { command: 'x', enabled: false },
      both: { command: 'x', url: 'http://127.0.0.1:1/sse' },
      'a.b_c-d': { url: 'http://127.0.0.1:1/mcp' },
    });
    expect(config[long]).toEqual({ command: 'x', enabled: true });
    expect(config.off?.enabled).toBe(false);
    expect(config['a.b_c-d']).toEqual({ url: 'http://127.0.0.1:1/mcp', enabled: true });
    // A command makes a server stdio even with a URL that looks like SSE.
    expect(effectiveMcpTransport(config.both as never)).toBe('stdio');
  });
});

describe('effectiveMcpTransport', () => {
  it('is streamable HTTP for a URL it cannot read or none at all, and an explicit transport beats a command', () => {
    expect(effectiveMcpTransport({ url: 'not a url/sse' })).toBe('http');
    expect(effectiveMcpTransport({})).toBe('http');
    expect(effectiveMcpTransport({ command: 'x', transport: 'http' })).toBe('http');
    expect(effectiveMcpTransport({ command: 'x', transport: 'streamable-http' })).toBe('http');
    expect(effectiveMcpTransport({ url: 'http://127.0.0.1:1/sse', transport: 'stdio', command: 'x' })).toBe('stdio');
    expect(effectiveMcpTransport({ command: 'x', url: 'http://127.0.0.1:1/mcp', transport: 'sse' })).toBe('sse');
  });
});

describe('mcpConfigToJSON', () => {
  it('keeps the auth strategy but never its credential, marks disabled servers, and leaves out what was not set', () => {
    const config = parseMcpConfig({
      remote: { url: 'http://127.0.0.1:1/mcp', auth: { strategy: 'bearer', value: 'top-secret' } },
      off: { command: 'x', enabled: false, sandbox: { readablePaths: ['/opt'] } },
    });
    const json = mcpConfigToJSON(config);
    expect(JSON.stringify(json)).not.toContain('top-secret');
    expect(json).toEqual({
      remote: { url: 'http://127.0.0.1:1/mcp', auth: { strategy: 'bearer' } },
      off: { command: 'x', enabled: false },
    });
  });
});
