import type { Message } from '@x/events';
import type { LLM } from '../../src/index.js';
import type { WireReply, WireServer } from '../../src/testing/index.js';

/** One provider under the shared contract: its wire server, a factory for its LLM, and what it stores. */
export interface ProviderSpec {
  name: string;
  start(
    script: WireReply[] | ((body: Record<string, unknown>, index: number) => WireReply),
    options?: { apiKey?: string },
  ): Promise<WireServer>;
  create(
    server: WireServer,
    options?: { usageId?: string; maxRetries?: number; timeoutMs?: number; apiKey?: string; stream?: boolean },
  ): LLM;
  /** Asserts the reply kept the provider's reasoning artefact (thinking blocks, reasoning item, signature). */
  expectReasoningKept(message: Message): void;
  /** The same message with that artefact removed, as a lossy client would send it back. */
  dropReasoning(message: Message): Message;
}

export const userMessage = (text: string): Message => ({
  role: 'user',
  content: [{ cache_prompt: false, type: 'text', text }],
  thinking_blocks: [],
});

export function toolResult(callId: string, name: string, text: string): Message {
  return {
    role: 'tool',
    tool_call_id: callId,
    name,
    content: [{ cache_prompt: false, type: 'text', text }],
    thinking_blocks: [],
  };
}
