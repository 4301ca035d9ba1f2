import { loadOptionalDependencies } from '../../dependencies/internal/load-optional-dependencies.js';

/** The parts of `@modelcontextprotocol/sdk` the face uses, loaded on first use (an optional peer dependency). */
export interface McpSdk {
  server: typeof import('@modelcontextprotocol/sdk/server/index.js');
  types: typeof import('@modelcontextprotocol/sdk/types.js');
  streamableHttp: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  stdio: typeof import('@modelcontextprotocol/sdk/server/stdio.js');
}

let loading: Promise<McpSdk> | undefined;

/** Loads the MCP SDK once; a MissingDependencyError (with its install command) when it is not installed. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= loadOptionalDependencies('The MCP face', {
    '@modelcontextprotocol/sdk': async (): Promise<McpSdk> => {
      const [server, types, streamableHttp, stdio] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/index.js'),
        import('@modelcontextprotocol/sdk/types.js'),
        import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
        import('@modelcontextprotocol/sdk/server/stdio.js'),
      ]);
      return { server, types, streamableHttp, stdio };
    },
  }).then(
    (loaded) => loaded['@modelcontextprotocol/sdk'],
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
