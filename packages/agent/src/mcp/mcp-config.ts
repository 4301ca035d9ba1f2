import { z } from 'zod';
import { setOwnEntry } from '../internal/own-entries.js';
import { maskUrlCredentials } from '../llm/mask-url-credentials.js';
import { sandboxNetworkSchema } from '../sandbox/sandbox-policy.js';
import { InvalidMcpConfigError } from './invalid-mcp-config-error.js';

/** Transports the reference names: `http` and `streamable-http` are one (streamable HTTP); `sse` is the older HTTP+SSE. */
export const mcpTransportSchema = z.enum(['stdio', 'http', 'streamable-http', 'sse']);
export type McpTransport = z.infer<typeof mcpTransportSchema>;

/**
 * x only (never written to base_state.json, which the reference reads): what a stdio server may do beyond the
 * conversation's sandbox policy. A server that calls an API needs `network`; one run from a script outside the
 * workspace needs that script's directory in `readablePaths`. The server then runs in a sandbox of its own.
 */
export const mcpServerSandboxSchema = z.strictObject({
  network: sandboxNetworkSchema.optional(),
  readablePaths: z.array(z.string()).optional(),
  writablePaths: z.array(z.string()).optional(),
});
export type McpServerSandbox = z.infer<typeof mcpServerSandboxSchema>;

/**
 * One MCP server, as the reference's `MCPServer` model (`agent.mcp_config[name]`): a `command` (stdio) or a `url`
 * (streamable HTTP, or HTTP+SSE with `transport: 'sse'` or a URL path ending in `/sse`). Unknown keys are rejected,
 * as the reference does.
 */
export const mcpServerConfigSchema = z
  .strictObject({
    url: z.string().min(1).optional(),
    transport: mcpTransportSchema.optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    /** The child's whole environment besides PATH/HOME-like basics: the host's variables are never inherited. */
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    description: z.string().optional(),
    icon: z.string().optional(),
    /** Seconds a tool call may take (default 300, the reference's `MCP_TOOL_TIMEOUT_SECONDS`). */
    timeout: z.number().positive().optional(),
    sse_read_timeout: z.number().optional(),
    keep_alive: z.boolean().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** The reference's auth credential (`strategy`: none, api_key, bearer, basic, header); oauth2 is not supported. */
    auth: z.looseObject({ strategy: z.string() }).optional(),
    /** A disabled server stays configured but is not started. */
    enabled: z.boolean().default(true),
    /** x only: what a stdio server may do beyond the conversation's sandbox policy (see `mcpServerSandboxSchema`). */
    sandbox: mcpServerSandboxSchema.optional(),
  })
  .superRefine((server, context) => {
    const transport = server.transport ?? (server.command !== undefined ? 'stdio' : 'http');
    if (transport === 'stdio' && server.command === undefined) {
      context.addIssue({ code: 'custom', message: "stdio MCP servers require 'command'" });
    }
    if (transport !== 'stdio' && server.url === undefined) {
      context.addIssue({ code: 'custom', message: "remote MCP servers require 'url' (or give a 'command')" });
    }
  });
export type McpServerConfig = z.output<typeof mcpServerConfigSchema>;

/**
 * How x connects to a server: its `transport`, else `stdio` for a `command`, else what the URL says as the
 * reference's FastMCP infers it (a path ending in `/sse` is HTTP+SSE, anything else streamable HTTP).
 */
export function effectiveMcpTransport(
  server: Pick<McpServerConfig, 'transport' | 'command' | 'url'>,
): 'stdio' | 'http' | 'sse' {
  if (server.transport === 'stdio' || server.transport === 'sse') return server.transport;
  if (server.transport !== undefined) return 'http';
  if (server.command !== undefined) return 'stdio';
  return urlPathEndsWithSse(server.url) ? 'sse' : 'http';
}

function urlPathEndsWithSse(url: string | undefined): boolean {
  if (url === undefined) return false;
  try {
    return /\/sse\/?$/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}
export type McpServerConfigInput = z.input<typeof mcpServerConfigSchema>;

/** Server name → server: the reference's `agent.mcp_config`. */
export type McpConfig = Record<string, McpServerConfig>;

/** The config as users write it: `{name: server}` or the wider-spread `{"mcpServers": {name: server}}`. */
export type McpConfigInput =
  | Record<string, McpServerConfigInput>
  | { mcpServers: Record<string, McpServerConfigInput> };

const serverNamePattern = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Validates an MCP configuration (reference `coerce_mcp_config`): accepts `{mcpServers: {...}}` or the bare server
 * map, maps `type` to `transport` (`shttp` → `http`). Throws `InvalidMcpConfigError` naming the server and field.
 */
export function parseMcpConfig(value: unknown, source = 'mcp_config'): McpConfig {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidMcpConfigError(source, 'expected an object of servers');
  }
  const record = value as Record<string, unknown>;
  const servers = 'mcpServers' in record ? (record.mcpServers ?? {}) : record;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new InvalidMcpConfigError(source, "'mcpServers' must be an object of servers");
  }
  const config: McpConfig = {};
  for (const [name, raw] of Object.entries(servers)) {
    if (!serverNamePattern.test(name)) {
      throw new InvalidMcpConfigError(source, `server name '${name}' must be 1-64 letters, digits, '_', '.' or '-'`);
    }
    // The config is a JSON object keyed by server name, whose `__proto__` key is its prototype to JavaScript: the
    // server would vanish from the config (and from base_state.json), so the name is refused.
    if (name === '__proto__') throw new InvalidMcpConfigError(source, "server name '__proto__' is reserved");
    const parsed = mcpServerConfigSchema.safeParse(normalizeTransportField(raw));
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(server)'}: ${issue.message}`);
      throw new InvalidMcpConfigError(source, `server '${name}': ${problems.join('; ')}`, { cause: parsed.error });
    }
    const problem = restoreProtoNamedEntries(parsed.data, raw);
    if (problem !== undefined) throw new InvalidMcpConfigError(source, `server '${name}': ${problem}`);
    config[name] = parsed.data;
  }
  return config;
}

/**
 * zod's records leave out a `__proto__` key (so parsing never sets a prototype), but `__proto__` is a legal name for an
 * environment variable or a header: the one `raw` has as its own key is put back into the parsed `env` / `headers`
 * as an own entry, so the server gets what its config says. Returns what is wrong when that value is not a string.
 */
function restoreProtoNamedEntries(server: McpServerConfig, raw: unknown): string | undefined {
  for (const field of ['env', 'headers'] as const) {
    const given = (raw as Record<string, unknown>)[field];
    if (typeof given !== 'object' || given === null || !Object.hasOwn(given, '__proto__')) continue;
    const value = Object.getOwnPropertyDescriptor(given, '__proto__')?.value;
    if (typeof value !== 'string') return `${field}.__proto__: expected a string, got ${typeof value}`;
    setOwnEntry(server[field] as Record<string, string>, '__proto__', value);
  }
  return undefined;
}

function normalizeTransportField(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const { type, ...rest } = raw as Record<string, unknown>;
  const transport = rest.transport ?? type;
  return transport === undefined ? rest : { ...rest, transport: transport === 'shttp' ? 'http' : transport };
}

const REDACTED = '**********';

/**
 * The config as base_state.json holds it: env values and headers redacted, as the reference's SecretStr fields, and
 * a URL's password and key-like query parameters masked (`maskUrlCredentials`).
 */
export function mcpConfigToJSON(config: McpConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(config)) {
    // `sandbox` is x's: the reference's MCPServer rejects unknown fields.
    const { env, headers, auth, enabled, sandbox: _sandbox, ...rest } = server;
    out[name] = {
      ...rest,
      ...(rest.url === undefined ? {} : { url: maskUrlCredentials(rest.url) }),
      ...(env === undefined ? {} : { env: Object.fromEntries(Object.keys(env).map((key) => [key, REDACTED])) }),
      ...(headers === undefined
        ? {}
        : { headers: Object.fromEntries(Object.keys(headers).map((key) => [key, REDACTED])) }),
      ...(auth === undefined ? {} : { auth: { strategy: auth.strategy } }),
      ...(enabled ? {} : { enabled: false }),
    };
  }
  return out;
}
