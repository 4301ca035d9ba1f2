import { pythonIsBlank } from '../registry/reference-kinds/python-text.js';
import type { AnyThinkingBlock, ContentPart, Message } from '../schemas/content.js';
import type {
  ChatCompletionsMessage,
  ChatCompletionsOptions,
  ChatContentPart,
  ChatThinkingBlock,
  ChatToolMessage,
} from './chat-completions-types.js';
import { truncateToolText } from './truncate-tool-text.js';

const ephemeral = Object.freeze({ type: 'ephemeral' as const });

/**
 * Renders messages as OpenAI Chat Completions messages exactly as the reference does (§2.3): list
 * content when any of cache/vision/function calling is on (unless `forceStringSerializer`), else one
 * string; tool results middle-truncated to 50,000 characters; blank text dropped from tool-call
 * turns; `tool_call_id` + `name` on tool results; thinking blocks under `thinking_blocks`.
 */
export function toChatCompletionsMessages(
  messages: readonly Message[],
  options: ChatCompletionsOptions = {},
): ChatCompletionsMessage[] {
  const cacheEnabled = options.cacheEnabled ?? false;
  const visionEnabled = options.visionEnabled ?? false;
  const functionCallingEnabled = options.functionCallingEnabled ?? true;
  const listForm = !options.forceStringSerializer && (cacheEnabled || visionEnabled || functionCallingEnabled);
  const sendReasoning = options.sendReasoningContent ?? false;
  return messages.map((message) => renderMessage(message, { listForm, visionEnabled, sendReasoning }));
}

interface RenderSettings {
  listForm: boolean;
  visionEnabled: boolean;
  sendReasoning: boolean;
}

function renderMessage(message: Message, settings: RenderSettings): ChatCompletionsMessage {
  const isTool = message.role === 'tool';
  const out = (
    settings.listForm
      ? listForm(message, settings)
      : { role: message.role, content: stringContent(message.content, isTool) }
  ) as ChatCompletionsMessage;

  if (out.role === 'assistant') {
    if (message.tool_calls !== undefined && message.tool_calls.length > 0) {
      out.tool_calls = message.tool_calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }));
      dropBlankContent(out);
    } else if (Array.isArray(out.content) && out.content.length === 0) {
      out.content = '';
    }
  }
  if (out.role === 'tool' && message.tool_call_id !== undefined) {
    out.tool_call_id = message.tool_call_id;
    // The reference asserts a name here; a missing one is sent as '' rather than thrown on.
    out.name = message.name ?? '';
  }
  if (settings.sendReasoning && message.reasoning_content) out.reasoning_content = message.reasoning_content;
  return out;
}

function stringContent(content: readonly ContentPart[], isTool: boolean): string {
  let text = '';
  let first = true;
  for (const part of content) {
    if (part.type !== 'text') continue;
    text = first ? part.text : `${text}\n${part.text}`;
    first = false;
  }
  return isTool ? truncateToolText(text) : text;
}

function listForm(message: Message, settings: RenderSettings): ChatCompletionsMessage {
  const isTool = message.role === 'tool';
  const content: ChatContentPart[] = [];
  let toolCache = false;
  for (const part of message.content) {
    // A part's own marker is sent whatever `cacheEnabled` says, as the reference's `to_llm_dict` does: the option
    // only picks the list form. On tool messages the marker moves to the message (LiteLLM ignores it on tool parts).
    const partCache = part.cache_prompt && !isTool;
    if (part.cache_prompt && isTool) toolCache = true;
    if (part.type === 'text') {
      const text = isTool ? truncateToolText(part.text) : part.text;
      content.push(partCache ? { type: 'text', text, cache_control: ephemeral } : { type: 'text', text });
    } else if (settings.visionEnabled) {
      const urls = part.image_urls;
      for (let i = 0; i < urls.length; i++) {
        const url = urls[i] as string;
        const last = i === urls.length - 1;
        content.push(
          partCache && last
            ? { type: 'image_url', image_url: { url }, cache_control: ephemeral }
            : { type: 'image_url', image_url: { url } },
        );
      }
    }
  }
  const out = { role: message.role, content } as ChatCompletionsMessage;
  if (toolCache) (out as ChatToolMessage).cache_control = ephemeral;
  if (out.role === 'assistant' && message.thinking_blocks.length > 0)
    out.thinking_blocks = message.thinking_blocks.map(chatThinkingBlock);
  return out;
}

/** The block as the reference's `model_dump()` gives it: key for key, an absent signature as `null`. */
function chatThinkingBlock(block: AnyThinkingBlock): ChatThinkingBlock {
  return block.type === 'thinking'
    ? { type: 'thinking', thinking: block.thinking, signature: block.signature ?? null }
    : { type: 'redacted_thinking', data: block.data };
}

/** A tool-call turn keeps only non-blank text; with nothing left the `content` key goes. */
function dropBlankContent(out: { content?: string | ChatContentPart[] }): void {
  if (typeof out.content === 'string') {
    if (pythonIsBlank(out.content)) delete out.content;
    return;
  }
  if (out.content === undefined) return;
  const kept = out.content.filter((part) => part.type !== 'text' || !pythonIsBlank(part.text));
  if (kept.length > 0) out.content = kept;
  else delete out.content;
}
