import type { FileStore } from '@x/store';

const HEX = /^[0-9a-f]{32}$/;
const SERVER_TOOLS = new Set(['TerminalTool', 'FileEditorTool', 'terminal', 'file_editor']);

/** One conversation directory shown to the server under the hex id it expects. */
export interface ViewedDirectory {
  /** 32-hex id the server sees (from base_state.json's id, else the directory name). */
  hex: string;
  /** The directory's real name under the store root. */
  name: string;
}

function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The server's meta.json for a conversation the server did not create (written by `x run`, the SDK or
 * the Python reference): its model and tools from base_state.json, no API key (the viewer's server uses
 * OPENAI_API_KEY if the conversation is continued, else the offline model).
 */
export function metaFromBaseState(
  hex: string,
  baseState: unknown,
  options: { hasApiKey: boolean },
): Record<string, unknown> {
  const state = recordOf(baseState);
  const agent = recordOf(state.agent);
  const llm = recordOf(agent.llm);
  const tools = (Array.isArray(agent.tools) ? agent.tools : [])
    .map((tool) => recordOf(tool).name)
    .filter((name): name is string => typeof name === 'string' && SERVER_TOOLS.has(name))
    .map((name) => ({ name }));
  // Kept whole (credentials included): the meta is held in memory, and a continued conversation needs the endpoint
  // it names; the server shows it masked in every response (`redactedAgentConfig`), and base_state.json, where it
  // comes from, already holds it as its writer wrote it.
  const baseUrl = typeof llm.base_url === 'string' && llm.base_url !== '' ? llm.base_url : undefined;
  // Without a key (and no keyless endpoint) the conversation opens on the offline model: viewable, not continuable.
  const model =
    typeof llm.model === 'string' && llm.model !== '' && (options.hasApiKey || baseUrl !== undefined)
      ? llm.model
      : 'offline';
  const now = new Date().toISOString().replace('Z', '+00:00');
  const workingDir = recordOf(state.workspace).working_dir;
  return {
    id: hex,
    title: null,
    tags: {},
    created_at: now,
    updated_at: now,
    agent: {
      llm: {
        model,
        ...(baseUrl === undefined ? {} : { base_url: baseUrl }),
        ...(typeof llm.usage_id === 'string' && llm.usage_id !== '' ? { usage_id: llm.usage_id } : {}),
      },
      tools,
    },
    workspace: { working_dir: typeof workingDir === 'string' && workingDir !== '' ? workingDir : process.cwd() },
    execution_status: typeof state.execution_status === 'string' ? state.execution_status : 'idle',
  };
}

/** The hex id for a conversation directory: base_state.json's id (hyphens removed), else its name. */
export function hexFor(name: string, baseState: unknown): string | undefined {
  const id = recordOf(baseState).id;
  const fromState = typeof id === 'string' ? id.replace(/-/g, '').toLowerCase() : undefined;
  if (fromState !== undefined && HEX.test(fromState)) return fromState;
  return HEX.test(name) ? name : undefined;
}

/**
 * A FileStore over a directory of conversations as the agent server expects them: conversations
 * without a meta.json get one derived from their base_state.json (kept in memory until the server
 * writes its own), and, when `only` is given, the store shows just that directory, under its hex id.
 */
export function createViewStore(
  inner: FileStore,
  options: { only?: ViewedDirectory | undefined; hasApiKey: boolean },
): FileStore {
  const { only } = options;
  const real = (path: string): string => {
    if (only === undefined || only.hex === only.name) return path;
    return path === only.hex || path.startsWith(`${only.hex}/`) ? `${only.name}${path.slice(only.hex.length)}` : path;
  };
  const metaHex = (path: string): string | undefined => {
    const match = /^([0-9a-f]{32})\/meta\.json$/.exec(path);
    return match?.[1];
  };
  const derivedMeta = async (hex: string): Promise<string | undefined> => {
    const base = `${real(hex)}/base_state.json`;
    if (!(await inner.exists(base))) return undefined;
    return JSON.stringify(metaFromBaseState(hex, JSON.parse(await inner.read(base)), options));
  };
  return {
    async read(path) {
      const hex = metaHex(path);
      if (hex !== undefined && !(await inner.exists(real(path)))) {
        const meta = await derivedMeta(hex);
        if (meta !== undefined) return meta;
      }
      return inner.read(real(path));
    },
    async exists(path) {
      if (await inner.exists(real(path))) return true;
      const hex = metaHex(path);
      return hex !== undefined && (await inner.exists(`${real(hex)}/base_state.json`));
    },
    async list(prefix) {
      if (only !== undefined && (prefix === '' || prefix === '/')) return [`${only.hex}/`];
      if (only === undefined || !(prefix === only.hex || prefix.startsWith(`${only.hex}/`))) return inner.list(prefix);
      const listed = await inner.list(real(prefix));
      return listed.map((entry) => `${only.hex}${entry.slice(only.name.length)}`);
    },
    write: (path, data) => inner.write(real(path), data),
    writeIfAbsent: (path, data) => inner.writeIfAbsent(real(path), data),
    copy: (from, to) => inner.copy(real(from), real(to)),
    delete: (path) => inner.delete(real(path)),
    describe: (path) => inner.describe(real(path)),
  };
}
