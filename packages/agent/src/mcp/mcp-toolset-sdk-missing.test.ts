// Without @modelcontextprotocol/sdk installed no MCP server can start: `start` throws one MissingDependencyError
// naming the install command, whether one server is configured or many, and a config with no enabled server never
// needs the SDK at all.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MissingDependencyError } from '../dependencies/missing-dependency-error.js';
import { loadMcpSdk } from './internal/mcp-sdk.js';
import { McpToolset } from './mcp-toolset.js';

vi.mock('./internal/mcp-sdk.js', () => ({
  loadMcpSdk: vi.fn(async () => {
    throw new MissingDependencyError({
      packageName: '@modelcontextprotocol/sdk',
      versionRange: '^1.0.0',
      feature: 'MCP servers (mcpConfig)',
    });
  }),
}));

afterEach(() => {
  vi.mocked(loadMcpSdk).mockClear();
});

// Nothing listens there: were the SDK loaded, the servers would fail one by one instead.
const remote = { url: 'http://127.0.0.1:9/mcp' };

describe('McpToolset without the MCP SDK', () => {
  it('throws one MissingDependencyError for a single server, not a failed server', async () => {
    const set = new McpToolset({ only: remote });
    await expect(set.start()).rejects.toBeInstanceOf(MissingDependencyError);
    await expect(set.start()).rejects.toThrow(/npm install @modelcontextprotocol\/sdk@\^1\.0\.0/);
  });

  it('throws one MissingDependencyError for several servers', async () => {
    const set = new McpToolset({ a: remote, b: { command: 'x' } });
    await expect(set.start()).rejects.toBeInstanceOf(MissingDependencyError);
  });

  it('starts a config of no enabled server without the SDK', async () => {
    const set = new McpToolset({ off: { ...remote, enabled: false } });
    await expect(set.start()).resolves.toEqual({ tools: [], errors: [] });
    await expect(new McpToolset({}).start()).resolves.toEqual({ tools: [], errors: [] });
    expect(loadMcpSdk).not.toHaveBeenCalled();
  });
});
