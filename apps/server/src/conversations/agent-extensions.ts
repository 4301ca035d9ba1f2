import {
  type AgentContextOptions,
  AgentError,
  type McpConfig,
  type McpConfigInput,
  maskUrlCredentials,
  parseAgentContext,
  parseMcpConfig,
  type SecretCipher,
} from '@x/agent';
import type { AgentRequest } from '../api/request-schemas.js';
import { InvalidRequestError } from './errors/invalid-request-error.js';

const REDACTED = '**********';

/**
 * The MCP servers and skills of a start request (`agent.mcp_config`, `agent.agent_context`); 422 when malformed,
 * naming them under `at` (where the agent is in the body).
 */
export function agentExtensions(
  request: AgentRequest,
  cipher: SecretCipher | undefined,
  at: readonly string[] = ['agent'],
): { mcpConfig?: McpConfig; agentContext?: AgentContextOptions } {
  const result: { mcpConfig?: McpConfig; agentContext?: AgentContextOptions } = {};
  let field = 'mcp_config';
  try {
    if (request.mcp_config !== null && request.mcp_config !== undefined) {
      // Decrypted before parsing: a stored URL is a token until then (the transport is inferred from the URL).
      const decrypt = (value: string): string =>
        cipher !== undefined && value.startsWith('gAAAAA') && cipher.isToken(value) ? cipher.decrypt(value) : value;
      result.mcpConfig = parseMcpConfig(
        mapRawMcpSecrets(request.mcp_config, decrypt, decrypt),
        [...at, 'mcp_config'].join('.'),
      );
    }
    if (request.agent_context !== null && request.agent_context !== undefined) {
      field = 'agent_context';
      result.agentContext = parseAgentContext(request.agent_context);
    }
  } catch (error) {
    if (!AgentError.isInstance(error)) throw error;
    throw new InvalidRequestError(error.message, { statusCode: 422, cause: error, loc: ['body', ...at, field] });
  }
  return result;
}

/**
 * `mcp_config` with its env values and headers encrypted (with the server key) or redacted, for meta.json; a URL
 * with credentials (a password, a key-like query parameter) encrypted whole, or masked (`maskUrlCredentials`).
 */
export function storableMcpConfig(value: unknown, cipher: SecretCipher | undefined): unknown {
  const kept = (secret: string): boolean => secret === REDACTED || (cipher?.isToken(secret) ?? false);
  return mapRawMcpSecrets(
    value,
    (secret) => (kept(secret) ? secret : cipher === undefined ? REDACTED : cipher.encrypt(secret)),
    (url) =>
      kept(url) || maskUrlCredentials(url) === url
        ? url
        : cipher === undefined
          ? maskUrlCredentials(url)
          : cipher.encrypt(url),
  );
}

/** `mcp_config` as API responses show it: env values and headers redacted, a URL's credentials masked. */
export function redactedMcpConfig(value: unknown): unknown {
  return mapRawMcpSecrets(value, () => REDACTED, maskUrlCredentials);
}

/**
 * Applies `map` to every `env` value and header, and `mapUrl` to the `url`, of each server of a raw (unvalidated)
 * config, in either accepted shape.
 */
function mapRawMcpSecrets(value: unknown, map: (value: string) => string, mapUrl: (url: string) => string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if ('mcpServers' in record) return { ...record, mcpServers: mapRawMcpSecrets(record.mcpServers, map, mapUrl) };
  const mapValues = (values: unknown): unknown =>
    typeof values === 'object' && values !== null && !Array.isArray(values)
      ? Object.fromEntries(
          Object.entries(values).map(([key, item]) => [key, typeof item === 'string' ? map(item) : item]),
        )
      : values;
  return Object.fromEntries(
    Object.entries(record).map(([name, server]) => {
      if (typeof server !== 'object' || server === null || Array.isArray(server)) return [name, server];
      const entry = { ...(server as Record<string, unknown>) };
      if ('env' in entry) entry.env = mapValues(entry.env);
      if ('headers' in entry) entry.headers = mapValues(entry.headers);
      if (typeof entry.url === 'string') entry.url = mapUrl(entry.url);
      return [name, entry];
    }),
  ) as McpConfigInput;
}
