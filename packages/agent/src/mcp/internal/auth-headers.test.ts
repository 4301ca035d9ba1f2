import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../mcp-config.js';
import { authHeaders } from './auth-headers.js';

/** A remote server parsed from JSON text, as a config file gives it (JSON.parse makes `__proto__` an own key). */
const server = (json: string) => parseMcpConfig(JSON.parse(`{"s": ${json}}`)).s!;

describe('authHeaders', () => {
  it('sends a header named __proto__ as one, from headers, an api_key header_name or a header credential', () => {
    expect(
      Object.entries(authHeaders(server('{"url": "http://127.0.0.1:1/mcp", "headers": {"__proto__": "H"}}'))),
    ).toEqual([['__proto__', 'H']]);
    const apiKey = server(
      '{"url": "http://127.0.0.1:1/mcp", "auth": {"strategy": "api_key", "value": "K", "header_name": "__proto__"}}',
    );
    expect(Object.entries(authHeaders(apiKey))).toEqual([['__proto__', 'K']]);
    const header = server(
      '{"url": "http://127.0.0.1:1/mcp", "auth": {"strategy": "header", "headers": {"__proto__": "P", "X-A": "1"}}}',
    );
    expect(Object.entries(authHeaders(header))).toEqual([
      ['__proto__', 'P'],
      ['X-A', '1'],
    ]);
  });

  it('names the bearer credential Authorization over a configured header of that name', () => {
    const bearer = server(
      '{"url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "old"}, "auth": {"strategy": "bearer", "value": "T"}}',
    );
    expect(authHeaders(bearer)).toEqual({ Authorization: 'Bearer T' });
  });
});
