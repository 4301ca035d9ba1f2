import { describeLLM, llmSettings } from '../telemetry/llm-settings.js';
import type { LLM } from './llm.js';
import { checkUsageId } from './usage-id.js';

/**
 * The same model under another usage id, so its calls are counted separately in
 * `ConversationStats.usage_to_metrics` (the reference gives the condenser's copy of the agent's LLM
 * the usage id "condenser").
 */
export function withUsageId(llm: LLM, usageId: string): LLM {
  if (llm.usageId === checkUsageId(usageId)) return llm;
  return describeLLM(
    {
      model: llm.model,
      usageId,
      offline: llm.offline,
      ...(llm.provider !== undefined && { provider: llm.provider }),
      ...(llm.pricing !== undefined && { pricing: llm.pricing }),
      complete: (request) => llm.complete(request),
    },
    llmSettings(llm),
  );
}
