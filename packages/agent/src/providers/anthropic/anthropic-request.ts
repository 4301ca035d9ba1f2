import type { AnthropicContentBlock, AnthropicMessageParam, AnthropicTextBlock } from '@x/events';
import { toAnthropicMessages } from '@x/events';
import { type LLMRequest, normalizeMessages } from '../../llm/llm.js';
import type { AnthropicLLMConfig, AnthropicPromptCaching } from './anthropic-config.js';

const ephemeral = { type: 'ephemeral' as const };
/** Anthropic rejects a request with more `cache_control` marks than this. */
const maxCacheMarks = 4;

interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: typeof ephemeral;
}

/** The body of `POST /v1/messages` (without `stream`) for a request. */
export function anthropicParams(config: AnthropicLLMConfig, model: string, request: LLMRequest) {
  const rendered = toAnthropicMessages(normalizeMessages(request.messages), { visionEnabled: config.vision ?? true });
  const tools: AnthropicTool[] = (request.tools ?? []).map((tool) => ({
    name: tool.function.name,
    description: tool.function.description,
    input_schema: { type: 'object', ...(tool.function.parameters as Record<string, unknown>) },
  }));
  const caching = cachingOf(config.promptCaching);
  if (caching) applyCacheControl(rendered.system, tools, rendered.messages, caching);
  const budget = config.thinking && 'budgetTokens' in config.thinking ? config.thinking.budgetTokens : undefined;
  const requested = config.maxOutputTokens ?? 8192;
  // Anthropic wants max_tokens above the thinking budget; the 1024 on top leaves room for the answer.
  // Without a budget the configured limit holds as given (a small one caps cost and latency).
  const maxTokens = budget === undefined ? requested : Math.max(requested, budget + 1024);
  return {
    model,
    max_tokens: maxTokens,
    messages: rendered.messages,
    ...(rendered.system.length > 0 && { system: rendered.system }),
    ...(tools.length > 0 && { tools }),
    ...(config.thinking &&
      ('budgetTokens' in config.thinking
        ? { thinking: { type: 'enabled' as const, budget_tokens: config.thinking.budgetTokens } }
        : { thinking: { type: 'adaptive' as const } })),
    // Anthropic rejects a temperature with thinking on.
    ...(config.temperature !== undefined && !config.thinking && { temperature: config.temperature }),
  };
}

function cachingOf(option: AnthropicLLMConfig['promptCaching']): Required<AnthropicPromptCaching> | undefined {
  if (option === false) return undefined;
  const given = option === true || option === undefined ? {} : option;
  return { system: given.system ?? true, tools: given.tools ?? true, recentTurns: given.recentTurns ?? 2 };
}

function cacheable(block: AnthropicContentBlock | undefined): block is AnthropicContentBlock & {
  cache_control?: typeof ephemeral;
} {
  return block !== undefined && block.type !== 'thinking' && block.type !== 'redacted_thinking';
}

/**
 * Anthropic caches the prefix up to each marked block: the system prompt, the tool list, and the last
 * user turns (so the next call reads what this one wrote). The turns get the marks the system prompt
 * and the tools leave of Anthropic's four, so a large `recentTurns` never makes the request invalid.
 */
function applyCacheControl(
  system: AnthropicTextBlock[],
  tools: AnthropicTool[],
  messages: AnthropicMessageParam[],
  caching: Required<AnthropicPromptCaching>,
): void {
  let marked = 0;
  const lastSystem = system[system.length - 1];
  if (caching.system && lastSystem) {
    lastSystem.cache_control = ephemeral;
    marked += 1;
  }
  const lastTool = tools[tools.length - 1];
  if (caching.tools && lastTool) {
    lastTool.cache_control = ephemeral;
    marked += 1;
  }
  const limit = Math.min(maxCacheMarks, marked + caching.recentTurns);
  for (let index = messages.length - 1; index >= 0 && marked < limit; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    const last = message.content[message.content.length - 1];
    if (cacheable(last)) {
      last.cache_control = ephemeral;
      marked += 1;
    }
  }
}
