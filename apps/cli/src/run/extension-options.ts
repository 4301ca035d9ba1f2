import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentOptions } from '@x/agent';
import { UsageError } from '../errors/usage-error.js';

type AgentModule = typeof import('@x/agent');

/**
 * The agent's MCP servers (`--mcp-config <file>`, the reference's `mcp_config` JSON, with or without the
 * `mcpServers` wrapper) and skills (the workspace's AGENTS.md and skill directories unless `--no-skills`).
 */
export function extensionOptions(
  agentModule: AgentModule,
  options: { mcpConfig?: string; skills?: boolean; userSkills?: boolean },
): Pick<AgentOptions, 'mcpConfig' | 'agentContext'> {
  const result: Pick<AgentOptions, 'mcpConfig' | 'agentContext'> = {};
  // `--user-skills` adds the user's own skills ($X_HOME/skills, default ~/.x/skills) to the workspace's.
  if (options.skills !== false) {
    result.agentContext = { loadProjectSkills: true, ...(options.userSkills === true ? { loadUserSkills: true } : {}) };
  }
  if (options.mcpConfig !== undefined) {
    const path = resolve(options.mcpConfig);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new UsageError(`Cannot read the MCP configuration ${path}: ${(error as Error).message}`, {
        hint: 'Give a JSON file like {"mcpServers": {"name": {"command": "...", "args": []}}}.',
      });
    }
    try {
      result.mcpConfig = agentModule.parseMcpConfig(json, path);
    } catch (error) {
      if (!agentModule.InvalidMcpConfigError.isInstance(error)) throw error;
      throw new UsageError(error.message, {
        hint: 'Each server needs a "command" (stdio) or a "url" (streamable HTTP); see the @x/agent README.',
      });
    }
  }
  return result;
}
