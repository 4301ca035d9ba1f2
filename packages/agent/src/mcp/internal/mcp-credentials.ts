import { credentialValues } from '../../secrets/internal/credential-values.js';
import type { McpServerConfig } from '../mcp-config.js';
import { authHeaders } from './auth-headers.js';

/**
 * What configures an MCP server that its failures and replies must never carry into the conversation's events: its
 * `env` values, its headers and `auth` credential (the reference's SecretStr fields, which base_state.json and the
 * server's API redact), and what its URL holds (see `credentialValues`). A server prints them where no one meant it
 * to: a token it was refused in its stderr (quoted by McpServerError), a header echoed in a tool's result.
 */
export function mcpCredentials(server: McpServerConfig): string[] {
  const auth = server.auth as Record<string, unknown> | undefined;
  const authValues = [auth?.value, auth?.password].filter((value): value is string => typeof value === 'string');
  return credentialValues({
    values: [...Object.values(server.env ?? {}), ...authValues],
    headers: authHeaders(server),
    url: server.url,
  });
}
