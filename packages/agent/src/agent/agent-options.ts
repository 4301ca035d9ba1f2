import type { KeyObject } from 'node:crypto';
import type { Condenser } from '../condenser/condenser.js';
import type { LLM } from '../llm/llm.js';
import type { McpConfigInput } from '../mcp/mcp-config.js';
import type { RecallToolOptions } from '../recall/index.js';
import type { AgentContextOptions } from '../skills/agent-context.js';
import type { Tool } from '../tools/tool.js';

export interface AgentOptions {
  /** What it is for, shown to the agents that can transfer control to it. */
  description?: string;
  /** The model. `createAgent` defaults to the environment's endpoint, and refuses (NoModelError) without one. */
  llm: LLM;
  /** Tools offered to the model. `finish` and `think` are always added when missing (reference default tools). */
  tools?: readonly Tool[];
  systemPrompt?: string;
  /** Extra per-conversation context sent as a second system block (reference `dynamic_context`). */
  dynamicContext?: string;
  /** Keeps the context within the model's window; none by default. */
  condenser?: Condenser;
  /** The `recall` tool (re-reads condensed events): on by default when `condenser` is set; `false` turns it off. */
  recall?: boolean | RecallToolOptions;
  /** Stream the model's tokens to listeners as StreamingDeltaEvents (never persisted). */
  stream?: boolean;
  /** MCP servers whose tools the model gets (reference `mcp_config`); started by the first conversation. */
  mcpConfig?: McpConfigInput;
  /** Skills: given ones and, with `loadProjectSkills`, the workspace's AGENTS.md and skill directories. */
  agentContext?: AgentContextOptions;
  /**
   * The agent's name, recorded with each run's start and end (`run` state updates) and used by `transfer_to_agent`
   * when it is not named by `ConversationOptions.agents`; default `agent`.
   */
  name?: string;
  /**
   * An Ed25519 private key that signs every event a conversation of this agent appends (see
   * `ConversationOptions.signingKey`): a sub-agent given its own key signs its events as itself.
   */
  signingKey?: KeyObject;
}
