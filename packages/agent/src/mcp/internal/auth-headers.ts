import { setOwnEntry } from '../../internal/own-entries.js';
import type { McpServerConfig } from '../mcp-config.js';

/** HTTP headers of a remote server: its `headers` plus those of its `auth` credential (reference `to_http_headers`). */
export function authHeaders(server: McpServerConfig): Record<string, string> {
  const headers: Record<string, string> = { ...(server.headers ?? {}) };
  const auth = server.auth as Record<string, unknown> | undefined;
  if (auth === undefined) return headers;
  const value = typeof auth.value === 'string' ? auth.value : undefined;
  switch (auth.strategy) {
    case 'bearer':
      if (value !== undefined) headers.Authorization = `Bearer ${value}`;
      break;
    case 'api_key':
      if (value !== undefined) {
        if (typeof auth.header_name === 'string') setOwnEntry(headers, auth.header_name, value);
        else headers.Authorization = `Bearer ${value}`;
      }
      break;
    case 'basic':
      if (typeof auth.username === 'string' && typeof auth.password === 'string') {
        headers.Authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
      }
      break;
    case 'header':
      if (typeof auth.headers === 'object' && auth.headers !== null) {
        for (const [key, item] of Object.entries(auth.headers))
          if (typeof item === 'string') setOwnEntry(headers, key, item);
      }
      break;
    default:
      break;
  }
  return headers;
}
