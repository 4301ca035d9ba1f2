import { describe, expect, it } from 'vitest';
import { InvalidMcpConfigError } from './invalid-mcp-config-error.js';
import { effectiveMcpTransport, mcpConfigToJSON, parseMcpConfig } from './mcp-config.js';

describe('parseMcpConfig', () => {
  it('accepts the bare server map and the mcpServers wrapper, mapping type to transport', () => {
    const servers = {
      fetch: { command: 'uvx', args: ['mcp-server-fetch'] },
      remote: { url: 'http://127.0.0.1:1/mcp', type: 'shttp' },
    };
    expect(parseMcpConfig({ mcpServers: servers })).toEqual(parseMcpConfig(servers));
    expect(parseMcpConfig(servers).remote).toEqual({ url: 'http://127.0.0.1:1/mcp', transport: 'http', enabled: true });
  });

  it('rejects unknown fields and servers without command or url, naming the server', () => {
    expect(() => parseMcpConfig({ a: { command: 'x', colour: 'red' } }, 'mcp.json')).toThrow(
      /Invalid MCP configuration in mcp\.json: server 'a': .*colour/,
    );
    expect(() => parseMcpConfig({ b: { transport: 'stdio' } })).toThrow(InvalidMcpConfigError);
    expect(() => parseMcpConfig({ b: { transport: 'stdio' } })).toThrow(/server 'b': .*require 'command'/);
    expect(() => parseMcpConfig([1])).toThrow(/expected an object of servers/);
  });

  it('refuses a server named __proto__ naming it, and keeps servers named constructor or toString', () => {
    const proto = JSON.parse('{"mcpServers": {"__proto__": {"command": "uvx"}}}');
    expect(() => parseMcpConfig(proto, 'mcp.json')).toThrow(InvalidMcpConfigError);
    expect(() => parseMcpConfig(proto, 'mcp.json')).toThrow(
      "Invalid MCP configuration in mcp.json: server name '__proto__' is reserved",
    );
    const config = parseMcpConfig({ constructor: { command: 'a' }, toString: { url: 'http://127.0.0.1:1/mcp' } });
    expect(Object.keys(config)).toEqual(['constructor', 'toString']);
    expect(Object.keys(mcpConfigToJSON(config))).toEqual(['constructor', 'toString']);
  });

  it('keeps an env variable or header named __proto__ as an own entry, through the persisted JSON', () => {
    const raw = JSON.parse(
      '{"s": {"type": "stdio", "command": "x", "env": {"A": "1", "__proto__": "V"}, "headers": {"__proto__": "H"}}}',
    );
    const config = parseMcpConfig(raw);
    const server = config.s!;
    expect(Object.entries(server.env ?? {})).toEqual([
      ['A', '1'],
      ['__proto__', 'V'],
    ]);
    expect(Object.entries(server.headers ?? {})).toEqual([['__proto__', 'H']]);
    expect(Object.getPrototypeOf(server.env)).toBe(Object.prototype);
    const persisted = JSON.parse(JSON.stringify(mcpConfigToJSON(config)));
    expect(Object.keys(persisted.s.env)).toEqual(['A', '__proto__']);
    expect(Object.keys(parseMcpConfig(persisted).s!.env ?? {})).toEqual(['A', '__proto__']);
  });

  it('refuses an env variable named __proto__ whose value is not a string, naming the server and field', () => {
    const raw = JSON.parse('{"s": {"command": "x", "env": {"__proto__": 5}}}');
    expect(() => parseMcpConfig(raw, 'mcp.json')).toThrow(InvalidMcpConfigError);
    expect(() => parseMcpConfig(raw, 'mcp.json')).toThrow(
      "Invalid MCP configuration in mcp.json: server 's': env.__proto__: expected a string, got number",
    );
  });

  it('redacts env values and headers in the persisted JSON', () => {
    const config = parseMcpConfig({ s: { command: 'x', env: { TOKEN: 'secret' }, headers: { 'X-Key': 'k' } } });
    expect(JSON.stringify(mcpConfigToJSON(config))).not.toMatch(/secret|"k"/);
    expect(mcpConfigToJSON(config)).toEqual({
      s: { command: 'x', env: { TOKEN: '**********' }, headers: { 'X-Key': '**********' } },
    });
  });

  it('picks the transport as the reference does: explicit, else stdio for a command, else /sse URLs are SSE', () => {
    const config = parseMcpConfig({
      local: { command: 'x' },
      stream: { url: 'http://127.0.0.1:1/mcp' },
      sse: { url: 'http://127.0.0.1:1/sse' },
      sseSlash: { url: 'http://127.0.0.1:1/v1/sse/?token=1' },
      notSse: { url: 'http://127.0.0.1:1/mcp?path=/sse' },
      forced: { url: 'http://127.0.0.1:1/events', transport: 'sse' },
      typed: { url: 'http://127.0.0.1:1/events', type: 'sse' },
      forcedHttp: { url: 'http://127.0.0.1:1/sse', transport: 'streamable-http' },
    });
    const transports = Object.fromEntries(
      Object.entries(config).map(([name, server]) => [name, effectiveMcpTransport(server)]),
    );
    expect(transports).toEqual({
      local: 'stdio',
      stream: 'http',
      sse: 'sse',
      sseSlash: 'sse',
      notSse: 'http',
      forced: 'sse',
      typed: 'sse',
      forcedHttp: 'http',
    });
  });
});
