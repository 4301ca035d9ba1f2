import type { ToolEnvironment } from '../tools/environment/index.js';
import type { Tool } from '../tools/tool.js';
import type { AgentOptions } from './agent-options.js';

/** Options of `createAgent`: those of `new Agent(...)`, each optional, and where the model comes from. */
export interface CreateAgentOptions extends Partial<AgentOptions> {
  /**
   * The model. Default: the one the environment describes (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY
   * or GOOGLE_API_KEY, with X_MODEL / `model`); without one `createAgent` throws `NoModelError`.
   */
  llm?: AgentOptions['llm'];
  /** The model name used with the environment's key (instead of X_MODEL), e.g. `anthropic/claude-sonnet-4-6`. */
  model?: string;
  /**
   * Use the built-in offline model (no network, no key; it only replays scripts, and here answers with a
   * notice that it is not a real model). Only when asked: a missing key is an error, never a fallback.
   */
  offline?: boolean;
  /**
   * The tools, replacing the built-ins (terminal, file editor, task tracker; `finish` and `think` are always
   * added). To keep the built-ins and add yours, use `extraTools`.
   */
  tools?: readonly Tool[];
  /** Tools added to `tools` (default: the built-ins), e.g. `extraTools: [myTool]` keeps terminal and editor. */
  extraTools?: readonly Tool[];
  /** What the built-in tools' processes inherit (default: a minimal environment, no credentials). */
  toolEnvironment?: ToolEnvironment;
}
