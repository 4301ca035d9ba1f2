import type { Message } from '@x/events';
import type { AgentError } from '../errors.js';
import { type McpConfig, type McpConfigInput, mcpConfigToJSON, parseMcpConfig } from '../mcp/mcp-config.js';
import { McpToolset } from '../mcp/mcp-toolset.js';
import type { SandboxAccess } from '../sandboxing/sandbox-access.js';
import type { AgentContextOptions } from '../skills/agent-context.js';
import type { SkillActivation } from '../skills/skill-prompts.js';
import { SkillSet } from '../skills/skill-set.js';
import { createInvokeSkillTool } from '../tools/invoke-skill-tool.js';
import type { Tool } from '../tools/tool.js';
import { toolNameKey } from '../tools/tool-names.js';

/**
 * What starting an agent's extensions gave: `invoke_skill` (when a skill needs it) and the MCP tools, and the errors
 * to record (servers, skill files).
 */
export interface ExtensionsStart {
  tools: Tool[];
  errors: AgentError[];
}

/**
 * An agent's MCP servers and skills. They start once, on the first conversation that uses the agent (never at
 * construction); a failing server or skill file is reported in `errors` and everything else still starts.
 */
export class AgentExtensions {
  readonly mcpConfig: McpConfig;
  readonly skills: SkillSet | undefined;
  #toolset: McpToolset | undefined;
  #started: Promise<ExtensionsStart> | undefined;
  /** The sandbox of the conversation that started the extensions last: stdio servers (re)start in it. */
  #sandbox: SandboxAccess | undefined;

  constructor(options: { mcpConfig?: McpConfigInput | McpConfig; agentContext?: AgentContextOptions }) {
    this.mcpConfig = parseMcpConfig(options.mcpConfig);
    this.skills = options.agentContext === undefined ? undefined : new SkillSet(options.agentContext);
  }

  /** Whether there is anything to start. */
  get active(): boolean {
    return Object.keys(this.mcpConfig).length > 0 || this.skills !== undefined;
  }

  /**
   * Starts the servers and loads the skills (once; later calls return the first result). `reserved`: the names the
   * agent's own tools claim (`claimedToolNames`), which no MCP tool may take. `sandbox` is the conversation's: stdio
   * servers run in it, and a server started again later (after a crash, or after `close`) runs in the sandbox of the
   * conversation that called `start` last.
   */
  start(
    workspace: string,
    reserved: ReadonlyMap<string, string> = new Map(),
    sandbox?: SandboxAccess,
  ): Promise<ExtensionsStart> {
    if (sandbox !== undefined) this.#sandbox = sandbox;
    this.#started ??= (async () => {
      const errors: AgentError[] = [];
      let tools: Tool[] = [];
      const skills = this.skills;
      if (skills !== undefined) {
        errors.push(...(await skills.load(workspace)));
        // As the reference: `invoke_skill` comes with the first AgentSkills-format skill, unless the agent has its own.
        if (skills.hasInvocableSkills && !reserved.has(toolNameKey('invoke_skill'))) {
          tools.push(createInvokeSkillTool(() => skills.skills));
        }
      }
      if (Object.keys(this.mcpConfig).length > 0) {
        this.#toolset = new McpToolset(this.mcpConfig, {
          workspace,
          ...(this.#sandbox === undefined ? {} : { sandbox: this.#currentSandbox() }),
        });
        const claimed = new Map(reserved);
        for (const tool of tools) claimed.set(toolNameKey(tool.name), tool.name);
        const started = await this.#toolset.start({ reserved: claimed });
        tools = [...tools, ...started.tools];
        errors.push(...started.errors);
      }
      return { tools, errors };
    })();
    return this.#started;
  }

  /** Follows `#sandbox`, which a later conversation replaces. */
  #currentSandbox(): SandboxAccess {
    const current = (): SandboxAccess => this.#sandbox as SandboxAccess;
    return {
      get policy() {
        return current().policy;
      },
      get: () => current().get(),
      openWith: (policy) => current().openWith(policy),
    };
  }

  systemContext(): string | undefined {
    return this.skills?.systemContext();
  }

  activateSkills(message: Message, skip: Iterable<string>): SkillActivation | undefined {
    return this.skills?.activate(message, skip);
  }

  /** Stops the MCP servers; a later tool call starts its server again. */
  async close(): Promise<void> {
    await this.#toolset?.close();
  }

  /** The reference's `mcp_config` and `agent_context` keys of the agent JSON (absent when unused). */
  toJSON(): Record<string, unknown> {
    return {
      ...(Object.keys(this.mcpConfig).length === 0 ? {} : { mcp_config: mcpConfigToJSON(this.mcpConfig) }),
      ...(this.skills === undefined ? {} : { agent_context: this.skills.toJSON() }),
    };
  }
}
