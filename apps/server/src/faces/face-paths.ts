/** Where the AG-UI endpoint is mounted: an AG-UI `HttpAgent`'s `url`. */
export const AG_UI_PATH = '/api/ag-ui';

/** Where the agent card is served (the SDK's `AGENT_CARD_PATH`, RFC 8615 well-known URI). */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** Where the A2A JSON-RPC endpoint is mounted. */
export const A2A_PATH = '/api/a2a';

/** Where the MCP face's streamable HTTP endpoint is mounted. */
export const MCP_PATH = '/api/mcp';

/** The OpenAI-compatible gateway's prefix (an `openai` client's `baseURL` is the server's URL with it). */
export const OPENAI_PATH = '/v1';

/** A protocol face of the server, or the REST API (and everything else it serves). */
export type ProtocolFace = 'rest' | 'ag-ui' | 'a2a' | 'mcp' | 'openai';

const PREFIXES: ReadonlyArray<readonly [string, ProtocolFace]> = [
  [AG_UI_PATH, 'ag-ui'],
  [A2A_PATH, 'a2a'],
  [AGENT_CARD_PATH, 'a2a'],
  [MCP_PATH, 'mcp'],
  [OPENAI_PATH, 'openai'],
];

/**
 * The path of a request target: an absolute-form target's authority dropped, the query and fragment cut off,
 * percent-encoding decoded where it decodes (the router matches `/api/%6dcp` as `/api/mcp`).
 */
export function targetPath(target: string): string {
  let path = target.split(/[?#]/, 1)[0] ?? '';
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (absolute !== null) path = path.slice(absolute[0].length) || '/';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The face a request target is addressed to: its path is a face's endpoint or lies under it (`/api/mcp/x`,
 * `/v1/embeddings`), else the REST API. A refusal the router, the Host/Origin check or the session-key check makes
 * before any route runs is answered in this face's shape, which its clients read.
 */
export function faceOfTarget(target: string | undefined): ProtocolFace {
  if (target === undefined) return 'rest';
  const path = targetPath(target);
  for (const [prefix, face] of PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return face;
  }
  return 'rest';
}
