import type { Condenser } from '../condenser/condenser.js';
import type { LLM } from '../llm/llm.js';
import type { Tool } from '../tools/tool.js';

export interface AgentOptions {
  /** The model. `createAgent` defaults to the environment's endpoint, or the offline model without a key. */
  llm: LLM;
  /** Tools offered to the model. `finish` and `think` are always added when missing (reference default tools). */
  tools?: readonly Tool[];
  systemPrompt?: string;
  /** Extra per-conversation context sent as a second system block (reference `dynamic_context`). */
  dynamicContext?: string;
  /** Keeps the context within the model's window; none by default. */
  condenser?: Condenser;
  /** Stream the model's tokens to listeners as StreamingDeltaEvents (never persisted). */
  stream?: boolean;
}
