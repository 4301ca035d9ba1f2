import { describe, expect, it } from 'vitest';
import { type McpServerConfigInput, parseMcpConfig } from '../mcp-config.js';
import { mcpCredentials } from './mcp-credentials.js';

function credentialsOf(server: McpServerConfigInput): string[] {
  const config = parseMcpConfig({ mcpServers: { one: server } });
  return mcpCredentials(config.one as (typeof config)[string]).sort();
}

describe('mcpCredentials', () => {
  it("takes a stdio server's env values, none shorter than 8 characters", () => {
    expect(credentialsOf({ command: 'x', env: { TOKEN: 'env-token-123', DEBUG: '1', MODE: 'fast' } })).toEqual([
      'env-token-123',
    ]);
  });

  it("takes a remote server's headers, the token of each, and its URL's userinfo and query", () => {
    expect(
      credentialsOf({
        url: 'https://user-name-1:pass%40word-2@mcp.example.invalid/mcp?key=query-key-3',
        headers: { Authorization: 'Token header-token-4', 'X-Api-Key': 'api-key-header-5' },
      }),
    ).toEqual(
      [
        'Token header-token-4',
        'header-token-4',
        'api-key-header-5',
        'user-name-1',
        'pass%40word-2',
        'pass@word-2',
        'query-key-3',
      ].sort(),
    );
  });

  it('takes the value of every auth strategy, and the password of basic auth besides its header', () => {
    const url = 'https://mcp.example.invalid/mcp';
    expect(credentialsOf({ url, auth: { strategy: 'bearer', value: 'bearer-value-1' } })).toEqual(
      ['bearer-value-1', 'Bearer bearer-value-1'].sort(),
    );
    expect(
      credentialsOf({ url, auth: { strategy: 'api_key', value: 'api-key-value-2', header_name: 'X-Key' } }),
    ).toEqual(['api-key-value-2']);
    const basic = Buffer.from('someone:basic-password-3').toString('base64');
    expect(
      credentialsOf({ url, auth: { strategy: 'basic', username: 'someone', password: 'basic-password-3' } }),
    ).toEqual(['basic-password-3', `Basic ${basic}`, basic].sort());
    expect(credentialsOf({ url, auth: { strategy: 'header', headers: { 'X-Secret': 'header-auth-4' } } })).toEqual([
      'header-auth-4',
    ]);
  });
});
